import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/personalReport/index-ys'))
