import { useDidHide, useUnload } from '@tarojs/taro'
import { useParams } from '@/hooks/use-params'
import { ContentMissing } from '../../features/content/components/content-missing'
import { VideoDetailView } from '../../features/content/components/video-views'
import { useVideo } from '../../features/content/hooks/use-videos'
import { shareCurrentPage } from '../../features/content/share'
import { useShareCard } from '../../features/sharing/owner/hooks/use-share-card'
import { navigate, routeUrl } from '../../services/navigate'

/** 视频详情: the player starts where this viewer stopped; leaving saves the position. */
export default function VideoShowYsDetailPage() {
  const params = useParams()
  const id = params.id ?? ''
  const model = useVideo(id)
  useDidHide(model.leave)
  useUnload(model.leave)
  useShareCard(
    model.video ? { title: model.video.title, path: routeUrl('videoShowYsDetail', { id }) } : null,
  )
  if (model.status === 'missing') return <ContentMissing message={model.error} />
  return (
    <VideoDetailView
      model={model}
      onNeedLogin={() =>
        void navigate('login', { redirect: routeUrl('videoShowYsDetail', { id }) })
      }
      onShare={() => void shareCurrentPage()}
    />
  )
}
