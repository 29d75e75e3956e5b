import { RequireLogin } from '../../components/require-login'
import { IdCardView } from '../../features/profile/components/idcard-view'
import { useIdCard } from '../../features/profile/hooks/use-idcard'

function IdCardContent() {
  const model = useIdCard()
  return <IdCardView model={model} />
}

export default function IdCardPage() {
  return (
    <RequireLogin text="登录后才能进行实名认证">
      <IdCardContent />
    </RequireLogin>
  )
}
