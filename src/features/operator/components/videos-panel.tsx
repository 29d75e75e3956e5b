import { useState } from 'react'
import { Image, Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import { VIDEO_CATEGORIES } from '@contract/main/content'
import { OPERATOR_MESSAGES } from '@contract/main/operator'
import { RefreshList } from '@/components/refresh-list'
import { showToast } from '@/platform/ui'
import { VIDEO_CATEGORY_LABELS, type VideoCategory } from '@/services/content'
import { mediaUrl } from '@/services/media'
import { operatorApi, type OperatorVideo } from '@/services/operator'
import { act, useUpload, useVideos } from '../hooks/use-operator'

/** A new video, or an edit of `editing` (its file and poster stay unless others are chosen). */
function VideoForm({
  editing,
  onSaved,
}: {
  editing: OperatorVideo | null
  onSaved: () => Promise<void>
}) {
  const [category, setCategory] = useState<VideoCategory>(editing?.category ?? 'talk')
  const [title, setTitle] = useState(editing?.title ?? '')
  const [summary, setSummary] = useState(editing?.summary ?? '')
  const video = useUpload('video')
  const poster = useUpload('poster')
  const save = async () => {
    if (!title.trim()) return showToast(OPERATOR_MESSAGES.titleRequired)
    const fileId = video.id ?? editing?.fileId
    if (!fileId) return showToast('请先上传 MP4 视频')
    const saved = await act(
      () =>
        operatorApi.saveVideo({
          ...(editing ? { id: editing.id } : {}),
          category,
          title: title.trim(),
          summary: summary.trim(),
          fileId,
          ...(poster.id ? { posterImageId: poster.id } : {}),
        }),
      editing ? '已保存' : '已保存为草稿',
      onSaved,
    )
    if (saved) {
      setTitle('')
      setSummary('')
      video.clear()
      poster.clear()
    }
  }
  return (
    <View className="operator__form">
      <Text className="operator__form-title">
        {editing ? `修改：${editing.title}` : '上传视频'}
      </Text>
      <View className="operator__chips" role="radiogroup">
        {VIDEO_CATEGORIES.map((key) => (
          <View
            key={key}
            role="radio"
            aria-checked={key === category}
            className={`operator__chip${key === category ? ' operator__chip--on' : ''}`}
            onClick={() => setCategory(key)}
          >
            {VIDEO_CATEGORY_LABELS[key]}
          </View>
        ))}
      </View>
      <Input
        className="operator__input"
        value={title}
        placeholder="标题"
        maxLength={60}
        onChange={setTitle}
      />
      <Input
        className="operator__input"
        value={summary}
        placeholder="简介（选填）"
        maxLength={140}
        onChange={setSummary}
      />
      <View className="operator__actions">
        <Button size="small" loading={video.busy} onClick={() => void video.pick()}>
          {video.id ? '重新选择视频' : '选择 MP4 视频'}
        </Button>
        <Text className="operator__meta">
          {video.id
            ? `${video.name}（${Math.round(video.durationSeconds ?? 0)} 秒）`
            : editing
              ? `保留原视频（${editing.durationSeconds} 秒）`
              : '最大 50 MB'}
        </Text>
      </View>
      <View className="operator__actions">
        <Button size="small" loading={poster.busy} onClick={() => void poster.pick()}>
          {poster.id ? '重新选择海报' : '选择海报图片'}
        </Button>
        <Text className="operator__meta">{poster.id ? poster.name : 'JPG / PNG，选填'}</Text>
      </View>
      <Button type="primary" block disabled={video.busy || poster.busy} onClick={() => void save()}>
        {editing ? '保存修改' : '保存为草稿'}
      </Button>
    </View>
  )
}

/** 健康讲座、急救讲堂、药膳食疗 videos: upload, then publish. */
export function VideosPanel() {
  const list = useVideos()
  const [editing, setEditing] = useState<OperatorVideo | null>(null)
  const setState = (video: OperatorVideo, state: 'published' | 'unpublished') =>
    act(
      () => operatorApi.setVideoState(video.id, state),
      state === 'published' ? '已发布' : '已下架',
      list.refresh,
    )
  return (
    <View>
      <VideoForm
        key={editing?.id ?? 'new'}
        editing={editing}
        onSaved={async () => {
          setEditing(null)
          await list.refresh()
        }}
      />
      <RefreshList
        list={list}
        keyOf={(video) => video.id}
        emptyText="还没有视频"
        renderItem={(video) => (
          <View className="operator__row operator__row--inline">
            {video.posterPath ? (
              <Image
                className="operator__poster"
                src={mediaUrl(video.posterPath)}
                mode="aspectFill"
              />
            ) : (
              <View className="operator__poster" />
            )}
            <View className="operator__grow">
              <Text className="operator__title">{video.title}</Text>
              <Text className="operator__meta">
                {VIDEO_CATEGORY_LABELS[video.category]} ·{' '}
                <Text className={`operator__state operator__state--${video.state}`}>
                  {video.stateLabel}
                </Text>{' '}
                · {video.durationSeconds} 秒 · 播放 {video.playCount}
              </Text>
              <View className="operator__actions">
                <Button size="small" onClick={() => setEditing(video)}>
                  编辑
                </Button>
                {video.state === 'published' ? (
                  <Button size="small" onClick={() => void setState(video, 'unpublished')}>
                    下架
                  </Button>
                ) : (
                  <Button
                    size="small"
                    type="primary"
                    onClick={() => void setState(video, 'published')}
                  >
                    发布
                  </Button>
                )}
              </View>
            </View>
          </View>
        )}
      />
    </View>
  )
}
