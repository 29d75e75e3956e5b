import { RequireLogin } from '../../components/require-login'
import { MyImagesView } from '../../features/records/components/my-images-view'
import { UPLOADS_GROUP, useMyImages } from '../../features/records/hooks/use-my-images'
import { useRefreshOnReturn } from '../../features/records/hooks/use-refresh-on-return'
import { isComingSoon } from '../../routes'
import { navigate } from '../../services/navigate'

function MyImagesContent() {
  const images = useMyImages()
  useRefreshOnReturn(images.groups.refresh)
  return (
    <MyImagesView
      images={images}
      onOpenExam={(exam) => void navigate('imageDetail', { id: exam.id })}
      onOpenGroup={(group) =>
        void navigate('hospitalExams', {
          hospitalId: group.hospital?.id ?? UPLOADS_GROUP,
          name: group.hospital?.name ?? '我上传的影像',
        })
      }
      onFindHospital={() => void navigate('hospitalPicker')}
      onQuery={isComingSoon('imageQuery') ? undefined : () => void navigate('imageQuery')}
    />
  )
}

/** 我的影像 (SPEC: personal images, with a select button). */
export default function PersonalImageIndexPage() {
  return (
    <RequireLogin text="登录后才能查看我的影像">
      <MyImagesContent />
    </RequireLogin>
  )
}
