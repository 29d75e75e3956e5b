import { Image, Text, Video, View } from '@tarojs/components'
import { PageState } from '@/components/page-state'
import { RefreshList } from '@/components/refresh-list'
import type { VideoCategory, VideoSummary } from '@/services/content'
import { mediaUrl } from '@/services/media'
import { timeFormat } from '@/utils/time'
import type { VideoModel } from '../hooks/use-videos'
import { useVideoList } from '../hooks/use-videos'
import './content.scss'

export function duration(seconds: number): string {
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`
}

export const VIDEO_CANNOT_PLAY = '视频暂时无法播放，请稍后重试'

function VideoCard({ video, onOpen }: { video: VideoSummary; onOpen: () => void }) {
  return (
    <View className="video-card" onClick={onOpen}>
      <View className="video-card__poster">
        {video.posterPath && (
          <Image
            className="video-card__image"
            src={mediaUrl(video.posterPath)}
            mode="aspectFill"
            lazyLoad
          />
        )}
        <Text className="video-card__duration">{duration(video.durationSeconds)}</Text>
      </View>
      <View className="video-card__main">
        <Text className="video-card__title">{video.title}</Text>
        <View className="article-card__meta">
          {video.demo && <Text className="article-card__demo">演示</Text>}
          <Text>{timeFormat(video.publishedAt, 'yyyy-mm-dd')}</Text>
          <Text>播放 {video.playCount}</Text>
        </View>
      </View>
    </View>
  )
}

/** A category's videos: poster with duration, title, pull-to-refresh and more at the bottom. */
export function VideoListView({
  category,
  onOpen,
}: {
  category: VideoCategory
  onOpen: (video: VideoSummary) => void
}) {
  const list = useVideoList(category)
  return (
    <View className="content-page">
      <RefreshList
        list={list}
        keyOf={(video) => video.id}
        renderItem={(video) => <VideoCard video={video} onOpen={() => onOpen(video)} />}
        emptyText="暂无视频"
      />
    </View>
  )
}

/** The player (Taro Video: the mini-program's and the browser's own), its text, 收藏 and 分享. */
export function VideoDetailView({
  model,
  onNeedLogin,
  onShare,
}: {
  model: VideoModel
  onNeedLogin: () => void
  onShare: () => void
}) {
  const { video } = model
  if (model.status === 'loading' && !video) return <PageState status="loading" />
  if (model.status === 'error' || !video) {
    return <PageState status="error" message={model.error} onRetry={model.retry} />
  }
  return (
    <View className="article">
      {model.playError ? (
        <View className="video__error" role="alert">
          <Text>{VIDEO_CANNOT_PLAY}</Text>
        </View>
      ) : (
        // A frame of its own height: the H5 player element sits out of the page's flow, so the
        // text below would otherwise start under it.
        <View className="video__frame">
          <Video
            className="video__player"
            id="content-video"
            src={mediaUrl(video.videoPath)}
            poster={video.posterPath ? mediaUrl(video.posterPath) : undefined}
            initialTime={video.resumeAt}
            duration={video.durationSeconds}
            showCenterPlayBtn
            objectFit="contain"
            onTimeUpdate={(event) => model.onTime(event.detail.currentTime)}
            onPause={model.onPause}
            onEnded={model.onEnded}
            onError={model.onPlayError}
          />
        </View>
      )}
      <View className="article__head">
        <Text className="article__title">{video.title}</Text>
        <View className="article__meta">
          <Text>时长 {duration(video.durationSeconds)}</Text>
          <Text>播放 {video.playCount}</Text>
          {video.resumeAt > 0 && <Text>上次看到 {duration(video.resumeAt)}</Text>}
        </View>
      </View>
      {video.demo && (
        <Text className="article__note">
          演示内容：本视频为本机生成的演示片段，仅用于展示播放功能。
        </Text>
      )}
      <Text className="article__body">{video.summary}</Text>
      <View className="article__bar">
        <View
          className={`article__action${model.favourite.on ? ' article__action--on' : ''}`}
          role="button"
          aria-pressed={model.favourite.on}
          onClick={() => (model.signedIn ? void model.favourite.toggle() : onNeedLogin())}
        >
          {model.favourite.on ? '已收藏' : '收藏'}
        </View>
        <View className="article__action" role="button" onClick={onShare}>
          分享
        </View>
      </View>
    </View>
  )
}
