import { pageConfig } from '../../routes'

export default definePageConfig(pageConfig('pages/myWallet/withdrawList'))
