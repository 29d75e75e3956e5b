import { RequireLogin } from '../../components/require-login'
import { UserInfoView } from '../../features/profile/components/user-info-view'
import { useUserInfo } from '../../features/profile/hooks/use-user-info'

function UserInfoContent() {
  const model = useUserInfo()
  return <UserInfoView model={model} />
}

export default function UserInfoPage() {
  return (
    <RequireLogin text="登录后才能查看和修改个人信息">
      <UserInfoContent />
    </RequireLogin>
  )
}
