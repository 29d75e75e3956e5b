import { UnderConstruction } from '../../components/under-construction'

export default function MyWalletMyWalletPage() {
  return <UnderConstruction />
}
