import { RequireLogin } from '../../components/require-login'
import { QuestionListView } from '../../features/consultations/patient/components/question-list-view'
import { navigate } from '../../services/navigate'

/** 我的咨询: 待支付, 待接诊, 进行中, 已完成, 已退款/已取消, with counts; a row opens 咨询详情. */
export default function QuestionListPage() {
  return (
    <RequireLogin text="登录后查看我的咨询">
      <QuestionListView onOpen={(item) => void navigate('question', { id: item.id })} />
    </RequireLogin>
  )
}
