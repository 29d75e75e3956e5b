import { RequireLogin } from '../../components/require-login'
import { ConsentsView } from '../../features/consents/components/consents-view'
import { useConsents } from '../../features/consents/hooks/use-consents'

function PrivacyContent() {
  return <ConsentsView model={useConsents()} />
}

export default function UserPrivacyPage() {
  return (
    <RequireLogin text="登录后才能查看隐私与授权">
      <PrivacyContent />
    </RequireLogin>
  )
}
