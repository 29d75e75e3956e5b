import { VideoListView } from '../../features/content/components/video-views'
import { navigate } from '../../services/navigate'

/** 健康讲座: the category's videos; a tap opens the player. */
export default function VideoShowPage() {
  return (
    <VideoListView
      category="talk"
      onOpen={(video) => void navigate('videoShowDetail', { id: video.id })}
    />
  )
}
