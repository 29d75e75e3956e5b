import {
  CONTENT_PAGE_SIZE,
  type VideoCategory,
  type VideoDetail,
  type VideoSummary,
} from '@contract/main/content'
import type { DB } from '../../db'
import { type Page, page, type PageQuery } from '../../db/paging'
import type { VideosTable } from '../../db/schema'
import { notFound } from '../../http/errors'
import { mediaPath } from './articles'

/*
 * Health videos (contract/main/content.ts): 健康讲座, 急救知识, 药膳食疗. The file itself is served by
 * /media with ranges (routes/main/content.ts). A signed-in viewer's position is kept per video, so
 * the player starts where they stopped; a position near the end means "watched", and starts over.
 */

export const VIDEO_NOT_FOUND = '视频不存在或已下架'
/**
 * Within this many seconds of the end a video counts as watched: next time starts from 0. A tenth
 * of a short video at most, so a 6-second clip stopped at second 3 still resumes there.
 */
export const WATCHED_TAIL_SECONDS = 3

export function toVideoSummary(row: VideosTable): VideoSummary {
  return {
    id: row.id,
    category: row.category,
    title: row.title,
    summary: row.summary,
    posterPath: mediaPath(row.poster_file_id),
    durationSeconds: Number(row.duration_seconds),
    publishedAt: row.published_at ?? row.updated_at,
    playCount: Number(row.play_count),
    demo: Number(row.demo) === 1,
  }
}

export async function listVideos(
  db: DB,
  query: PageQuery & { category: VideoCategory },
): Promise<Page<VideoSummary>> {
  const base = db
    .selectFrom('videos')
    .where('state', '=', 'published')
    .where('category', '=', query.category)
  const found = await page(
    query,
    base.selectAll().orderBy('published_at', 'desc').orderBy('id', 'desc'),
    base,
    { size: CONTENT_PAGE_SIZE },
  )
  return { ...found, items: found.items.map(toVideoSummary) }
}

async function findPublished(db: DB, videoId: string) {
  const row = await db
    .selectFrom('videos')
    .innerJoin('content_files', 'content_files.id', 'videos.video_file_id')
    .selectAll('videos')
    .select('content_files.mime_type')
    .where('videos.id', '=', videoId)
    .where('videos.state', '=', 'published')
    .executeTakeFirst()
  if (!row) throw notFound(VIDEO_NOT_FOUND)
  return row
}

/** Opening the detail counts a play (the list's 播放 count); the position is the caller's own. */
export async function getVideo(
  db: DB,
  videoId: string,
  userId: string | undefined,
): Promise<VideoDetail> {
  const row = await findPublished(db, videoId)
  await db
    .updateTable('videos')
    .set((eb) => ({ play_count: eb('play_count', '+', 1) }))
    .where('id', '=', videoId)
    .execute()
  const [position, favourite] = userId
    ? await Promise.all([
        db
          .selectFrom('video_positions')
          .select('seconds')
          .where('video_id', '=', videoId)
          .where('user_id', '=', userId)
          .executeTakeFirst(),
        db
          .selectFrom('favourites')
          .select('user_id')
          .where('user_id', '=', userId)
          .where('kind', '=', 'video')
          .where('target_id', '=', videoId)
          .executeTakeFirst(),
      ])
    : [undefined, undefined]
  return {
    ...toVideoSummary({ ...row, play_count: Number(row.play_count) + 1 }),
    videoPath: `/media/${row.video_file_id}`,
    mimeType: row.mime_type,
    resumeAt: position ? Number(position.seconds) : 0,
    favourited: favourite !== undefined,
  }
}

export async function saveVideoPosition(
  db: DB,
  input: { videoId: string; userId: string; seconds: number },
  now: Date,
): Promise<void> {
  const row = await findPublished(db, input.videoId)
  const duration = Number(row.duration_seconds)
  const whole = Math.floor(Math.min(input.seconds, duration))
  const tail = Math.min(WATCHED_TAIL_SECONDS, Math.floor(duration / 10))
  const seconds = whole >= duration - tail ? 0 : whole
  await db
    .insertInto('video_positions')
    .values({
      video_id: input.videoId,
      user_id: input.userId,
      seconds,
      updated_at: now.toISOString(),
    })
    .onConflict((oc) =>
      oc.columns(['video_id', 'user_id']).doUpdateSet({ seconds, updated_at: now.toISOString() }),
    )
    .execute()
}
