import { RequireLogin } from '../../components/require-login'
import { FeedbackView } from '../../features/feedback/components/feedback-view'
import { useFeedback } from '../../features/feedback/hooks/use-feedback'

function FeedbackContent() {
  return <FeedbackView form={useFeedback()} />
}

/** 意见反馈: type, text, pictures and contact; below, my feedback with the operator's replies. */
export default function FeedbackPage() {
  return (
    <RequireLogin text="登录后提交意见反馈">
      <FeedbackContent />
    </RequireLogin>
  )
}
