import Taro from '@tarojs/taro'
import { useEffect, useRef } from 'react'
import { useParams } from '@/hooks/use-params'
import { RequireLogin } from '../../components/require-login'
import { FeedbackView, FEEDBACK_HISTORY_ID } from '../../features/feedback/components/feedback-view'
import { useFeedback } from '../../features/feedback/hooks/use-feedback'

function FeedbackContent() {
  const form = useFeedback()
  // A reply's message opens the page with tab=mine: once 我的反馈 has loaded, it is scrolled to
  // (the form stays above it, one scroll away).
  const mine = useParams().tab === 'mine'
  const scrolled = useRef(false)
  const loaded = form.history.status === 'ready'
  useEffect(() => {
    if (!mine || !loaded || scrolled.current) return
    scrolled.current = true
    void Taro.pageScrollTo({ selector: `#${FEEDBACK_HISTORY_ID}`, duration: 0 }).catch(
      () => undefined,
    )
  }, [mine, loaded])
  return <FeedbackView form={form} />
}

/** 意见反馈: type, text, pictures and contact; below, my feedback with the operator's replies. */
export default function FeedbackPage() {
  return (
    <RequireLogin text="登录后提交意见反馈">
      <FeedbackContent />
    </RequireLogin>
  )
}
