import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/collectList/collectList'))
