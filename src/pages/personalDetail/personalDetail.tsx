import { useParams } from '@/hooks/use-params'
import { ExpertProfileView } from '../../features/experts/directory/components/expert-profile-view'
import { useExpertProfile } from '../../features/experts/directory/hooks/use-expert-profile'
import { COMING_SOON } from '../../components/under-construction'
import { showToast } from '../../platform/ui'
import { back, navigate, routeUrl } from '../../services/navigate'

/** 专家主页 (`?id=` the expert's user id): the public profile, 收藏, and 编辑主页 for the expert. */
export default function PersonalDetailPage() {
  const id = useParams().id ?? ''
  const model = useExpertProfile(id)
  return (
    <ExpertProfileView
      model={model}
      onNeedLogin={() => void navigate('login', { redirect: routeUrl('personalDetail', { id }) })}
      onEdit={() => void navigate('expertServices')}
      onConsult={(_service, profile) =>
        showToast(profile.accepting ? `在线咨询${COMING_SOON}` : '专家暂停接诊，暂不接受新的咨询')
      }
      onMissing={() => void back()}
    />
  )
}
