import { RequireLogin } from '../../components/require-login'
import { PatientQuestionsView } from '../../features/consultations/expert/components/patient-questions-view'
import { navigate } from '../../services/navigate'

/** 患者咨询 (the expert's side): 待接诊, 进行中, 已完成; a row opens its conversation. */
export default function DocQuestListPage() {
  return (
    <RequireLogin text="登录后查看患者咨询">
      <PatientQuestionsView
        onOpen={(card) => void navigate('myMessageDetail', { consultationId: card.id })}
      />
    </RequireLogin>
  )
}
