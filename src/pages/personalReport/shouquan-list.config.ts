import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/personalReport/shouquan-list'))
