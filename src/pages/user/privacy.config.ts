import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('privacyCenter'))
