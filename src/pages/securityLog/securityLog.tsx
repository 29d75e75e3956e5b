import { RequireLogin } from '../../components/require-login'
import { SecurityLogView } from '../../features/security/components/security-log-view'
import { useSecurityLog } from '../../features/security/hooks/use-security-log'

function SecurityLogContent() {
  return <SecurityLogView list={useSecurityLog()} />
}

export default function SecurityLogPage() {
  return (
    <RequireLogin text="登录后才能查看登录记录">
      <SecurityLogContent />
    </RequireLogin>
  )
}
