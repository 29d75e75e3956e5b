import { useParams } from '@/hooks/use-params'
import { ExpertProfileView } from '../../features/experts/directory/components/expert-profile-view'
import { useExpertProfile } from '../../features/experts/directory/hooks/use-expert-profile'
import { recordParams } from '../../features/consultations/apply/record-params'
import { showToast } from '../../platform/ui'
import { back, navigate, routeUrl } from '../../services/navigate'

/**
 * 专家主页 (`?id=` the expert's user id): the public profile, 收藏, and 编辑主页 for the expert. 咨询
 * opens 选择会诊方式, carrying a record chosen on 影像详情 / 报告详情 (`examId`, `reportId`, `personId`).
 */
export default function PersonalDetailPage() {
  const params = useParams()
  const id = params.id ?? ''
  const model = useExpertProfile(id)
  return (
    <ExpertProfileView
      model={model}
      onNeedLogin={() => void navigate('login', { redirect: routeUrl('personalDetail', { id }) })}
      onEdit={() => void navigate('expertServices')}
      onConsult={(_service, profile) =>
        profile.accepting
          ? void navigate('consultMode', { expertId: profile.id, ...recordParams(params) })
          : showToast('专家暂停接诊，暂不接受新的咨询')
      }
      onMissing={() => void back()}
    />
  )
}
