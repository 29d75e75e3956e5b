import { RequireLogin } from '../../components/require-login'
import { BindTelView } from '../../features/profile/components/bind-tel-view'
import { useBindTel } from '../../features/profile/hooks/use-bind-tel'

function BindTelContent() {
  const model = useBindTel()
  return <BindTelView model={model} />
}

export default function BindTelPage() {
  return (
    <RequireLogin text="登录后才能绑定手机号">
      <BindTelContent />
    </RequireLogin>
  )
}
