import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/scanPage/scanPage2'))
