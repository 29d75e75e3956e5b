import { RequireLogin } from '../../components/require-login'
import { CertificationView } from '../../features/experts/certification/components/certification-view'
import { useCertification } from '../../features/experts/certification/hooks/use-certification'

function CertificationContent() {
  const model = useCertification()
  return <CertificationView model={model} />
}

/** 专家认证: where my application stands, the form, and the way from each state to the next. */
export default function ExpertPerfectPage() {
  return (
    <RequireLogin text="登录后申请专家认证">
      <CertificationContent />
    </RequireLogin>
  )
}
