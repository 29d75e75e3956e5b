import { useParams } from '@/hooks/use-params'
import { RequireLogin } from '../../components/require-login'
import { GrantListView } from '../../features/sharing/owner/components/grant-list-view'

/**
 * 授权记录 (SPEC: authorization records). `examId` narrows it to one exam and starts with that
 * exam's 谁看过; `personId` shows a family member's grants.
 */
export default function PersonalReportShouquanListPage() {
  const { examId, personId } = useParams()
  return (
    <RequireLogin text="登录后才能查看授权记录">
      <GrantListView {...(examId ? { examId } : {})} {...(personId ? { personId } : {})} />
    </RequireLogin>
  )
}
