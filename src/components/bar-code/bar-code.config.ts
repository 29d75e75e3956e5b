import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('components/bar-code/bar-code'))
