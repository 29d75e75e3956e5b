import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/personalDetail/personalDetail'))
