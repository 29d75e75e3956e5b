import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/hospitalList/hospitalList'))
