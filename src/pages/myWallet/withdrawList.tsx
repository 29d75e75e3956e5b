import { UnderConstruction } from '../../components/under-construction'

export default function MyWalletWithdrawListPage() {
  return <UnderConstruction />
}
