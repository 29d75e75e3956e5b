import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/userAgreement/userAgreement'))
