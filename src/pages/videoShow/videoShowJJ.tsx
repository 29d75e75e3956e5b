import { VideoListView } from '../../features/content/components/video-views'
import { navigate } from '../../services/navigate'

/** 急救知识: the category's videos; a tap opens the player. */
export default function VideoShowJJPage() {
  return (
    <VideoListView
      category="firstAid"
      onOpen={(video) => void navigate('videoShowDetail', { id: video.id })}
    />
  )
}
