import { VideoListView } from '../../features/content/components/video-views'
import { navigate } from '../../services/navigate'

/** 药膳食疗: the category's videos; a tap opens the player. */
export default function VideoShowYsPage() {
  return (
    <VideoListView
      category="diet"
      onOpen={(video) => void navigate('videoShowYsDetail', { id: video.id })}
    />
  )
}
