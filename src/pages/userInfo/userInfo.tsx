import { UnderConstruction } from '../../components/under-construction'

export default function UserInfoUserInfoPage() {
  return <UnderConstruction />
}
