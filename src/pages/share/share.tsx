import { useParams } from '@/hooks/use-params'
import { PageState } from '../../components/page-state'
import { ShareLandingView } from '../../features/sharing/holder/components/share-landing'
import { SharedRecords } from '../../features/sharing/holder/components/shared-records'
import { SharedState } from '../../features/sharing/holder/components/shared-state'
import { useSharedGrant } from '../../features/sharing/holder/hooks/use-shared'
import { navigate, redirect } from '../../services/navigate'

function SharedGrantContent({ grantId }: { grantId: string }) {
  const shared = useSharedGrant(grantId)
  return (
    <SharedState
      shared={shared}
      ready={(grant) => (
        <SharedRecords
          grant={grant}
          onOpen={(record) =>
            void (record.kind === 'exam'
              ? navigate('shareExam', { grantId, examId: record.examId })
              : navigate('shareReport', { grantId, reportId: record.id }))
          }
        />
      )}
    />
  )
}

/**
 * 查看分享 (issue 9): `token` is a share link (提取码, then 查看); `grantId` is the grant's records,
 * for the visitor after 查看 (their link session) or a signed-in grantee from 共享给我的.
 */
export default function SharePage() {
  const { token, grantId } = useParams()
  if (grantId) return <SharedGrantContent grantId={grantId} />
  if (token) {
    return (
      <ShareLandingView
        token={token}
        // Replaces the link's page: back and reload land on the records, not a second opening.
        onOpened={(grant) => void redirect('share', { grantId: grant.id })}
      />
    )
  }
  return <PageState status="empty" message="链接不完整，请重新打开分享链接" />
}
