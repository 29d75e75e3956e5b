import { useCallback, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { HttpError } from '@/services/http'
import {
  getVideo,
  listVideos,
  saveVideoPosition,
  type VideoCategory,
  type VideoDetail,
  type VideoSummary,
} from '@/services/content'
import { addFavourite, removeFavourite } from '@/services/favourites'
import { useSessionStore } from '@/stores/session-store'
import { useToggle } from '@/hooks/use-toggle'

/** One category's videos (健康讲座, 急救知识, 药膳食疗), newest first. */
export function useVideoList(category: VideoCategory): PagedList<VideoSummary> {
  return usePagedList<VideoSummary>(async (page, pageSize) => {
    const answer = await listVideos({ category, page, pageSize })
    return { items: answer.items, total: answer.total }
  })
}

/** How often the position is saved while playing (and always on pause, end and leaving). */
export const SAVE_EVERY_SECONDS = 5

/** The server's words for a video it does not have (or no longer publishes). */
export const VIDEO_MISSING = '视频不存在或已下架'

export interface VideoModel {
  /** missing: no such video (or no id at all); retrying cannot help. */
  status: 'loading' | 'ready' | 'error' | 'missing'
  error: string
  video: VideoDetail | null
  /** Set when the player reported it cannot play the file. */
  playError: boolean
  signedIn: boolean
  favourite: ReturnType<typeof useToggle>
  onTime: (seconds: number) => void
  onPause: () => void
  onEnded: () => void
  onPlayError: () => void
  /** Leaving the page: the last position is saved. */
  leave: () => void
  retry: () => void
}

/** 视频详情: the video starts where this viewer stopped, and remembers where they stop again. */
export function useVideo(videoId: string): VideoModel {
  const signedIn = useSessionStore((state) => state.token !== null)
  const [playError, setPlayError] = useState(false)
  const position = useRef(0)
  const saved = useRef(0)
  const sendFavourite = useCallback(
    async (on: boolean) => {
      if (on) return addFavourite('video', videoId)
      await removeFavourite('video', videoId)
      return undefined
    },
    [videoId],
  )
  const favourite = useToggle({ on: false, count: 0 }, sendFavourite)
  const { reset } = favourite

  const resource = useResource(
    // No id at all: nothing to ask, the video is missing.
    videoId === '' ? null : videoId,
    async (signal) => {
      const found = await getVideo(videoId)
      if (signal.aborted) return found
      position.current = found.resumeAt
      saved.current = found.resumeAt
      reset({ on: found.favourited, count: 0 })
      return found
    },
    { errorMessage: '视频加载失败，请稍后重试' },
  )
  const video = resource.status === 'ready' ? resource.data : null
  const missing =
    resource.status === 'idle' ||
    (resource.status === 'error' &&
      resource.error instanceof HttpError &&
      resource.error.statusCode === 404)
  const status: VideoModel['status'] = missing ? 'missing' : resource.status
  const error = missing ? VIDEO_MISSING : resource.status === 'error' ? resource.message : ''

  const save = useCallback(() => {
    if (!signedIn || !video) return
    const seconds = Math.floor(position.current)
    if (seconds === saved.current) return
    saved.current = seconds
    void saveVideoPosition(videoId, seconds).catch(() => undefined)
  }, [signedIn, video, videoId])

  return {
    status,
    error,
    video,
    playError,
    signedIn,
    favourite,
    onTime: (seconds) => {
      position.current = seconds
      if (Math.abs(seconds - saved.current) >= SAVE_EVERY_SECONDS) save()
    },
    onPause: save,
    onEnded: () => {
      // Watched to the end: next time starts from the beginning (the server says 0 near the end).
      position.current = video?.durationSeconds ?? position.current
      save()
    },
    onPlayError: () => setPlayError(true),
    leave: save,
    retry: () => void resource.reload(),
  }
}
