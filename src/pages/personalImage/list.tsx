import { useParams } from '@/hooks/use-params'
import { RequireLogin } from '../../components/require-login'
import { ExamListView } from '../../features/records/components/exam-list-view'
import { useExamList } from '../../features/records/hooks/use-exam-list'
import { useRefreshOnReturn } from '../../features/records/hooks/use-refresh-on-return'
import { navigate } from '../../services/navigate'

function ExamListContent() {
  // hospitalId: a hospital's id or `upload`; absent: every exam of mine. name: shown as the title.
  const { hospitalId, name } = useParams()
  const exams = useExamList(hospitalId || undefined)
  useRefreshOnReturn(exams.list.refresh)
  return (
    <ExamListView
      title={name || '全部检查'}
      exams={exams}
      onOpen={(exam) => void navigate('imageDetail', { id: exam.id })}
    />
  )
}

/** 院内查询: the exams of one hospital, by date and type. */
export default function PersonalImageListPage() {
  return (
    <RequireLogin text="登录后才能查看检查记录">
      <ExamListContent />
    </RequireLogin>
  )
}
