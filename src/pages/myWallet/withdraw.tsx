import { UnderConstruction } from '../../components/under-construction'

export default function MyWalletWithdrawPage() {
  return <UnderConstruction />
}
