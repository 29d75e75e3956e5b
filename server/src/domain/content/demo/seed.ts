import { randomUUID } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import type { VideoCategory } from '@contract/main/content'
import type { DB } from '../../../db'
import type { ObjectStore } from '../../../storage/object-store'
import { sanitiseArticleHtml } from '../sanitise'
import { DEMO_ARTICLE_TYPES, DEMO_ARTICLES } from './articles'

/*
 * Demo content (issue 10): the team's own articles and a few locally generated videos, each marked
 * 演示 (demo = 1), written once per database in demo mode. Published a day apart going back from
 * the first start, so lists have an order. Removed again when a server starts with demo mode off.
 */

export const DEMO_CONTENT_MARKER = 'content-demo'
export const DEMO_SOURCE = '医影通编辑部（演示内容）'
const MEDIA_DIR = path.join(__dirname, 'media')

interface DemoVideo {
  file: string
  category: VideoCategory
  title: string
  summary: string
  durationSeconds: number
}

/** Made by scripts/make-demo-videos.sh (committed, so no ffmpeg is needed at run time). */
export const DEMO_VIDEOS: readonly DemoVideo[] = [
  {
    file: 'talk-ct',
    category: 'talk',
    title: '做 CT 前要准备什么（演示）',
    summary: '演示视频：CT 检查前的准备要点。',
    durationSeconds: 6,
  },
  {
    file: 'talk-nodule',
    category: 'talk',
    title: '体检发现肺结节怎么办（演示）',
    summary: '演示视频：看懂肺结节的大小与复查。',
    durationSeconds: 6,
  },
  {
    file: 'firstaid-cpr',
    category: 'firstAid',
    title: '心肺复苏的要点（演示）',
    summary: '演示视频：识别、呼救、按压、除颤。',
    durationSeconds: 5,
  },
  {
    file: 'firstaid-choke',
    category: 'firstAid',
    title: '海姆立克急救法（演示）',
    summary: '演示视频：异物卡喉时的施救方法。',
    durationSeconds: 5,
  },
  {
    file: 'diet-congee',
    category: 'diet',
    title: '山药小米粥（演示）',
    summary: '演示视频：一道清淡易消化的家常粥。',
    durationSeconds: 5,
  },
]

/** The article markup of demo/articles.ts as HTML (then through the same sanitiser as operators'). */
export function demoBodyHtml(body: string): string {
  const escape = (text: string) =>
    text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
  const out: string[] = []
  let list: string[] = []
  const flush = () => {
    if (list.length > 0) out.push(`<ul>${list.map((item) => `<li>${item}</li>`).join('')}</ul>`)
    list = []
  }
  for (const line of body
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    if (line.startsWith('- ')) {
      list.push(escape(line.slice(2)))
      continue
    }
    flush()
    out.push(
      line.startsWith('## ') ? `<h2>${escape(line.slice(3))}</h2>` : `<p>${escape(line)}</p>`,
    )
  }
  flush()
  return out.join('')
}

async function putMedia(
  store: ObjectStore,
  name: string,
  contentType: string,
): Promise<{ key: string; size: number }> {
  const bytes = await readFile(path.join(MEDIA_DIR, name))
  const key = `content/demo/${name}`
  await store.put(key, bytes, { contentType })
  return { key, size: bytes.length }
}

/** Idempotent and safe with several processes: the marker row is claimed in the same transaction. */
export async function seedDemoContent(db: DB, store: ObjectStore, now: Date): Promise<boolean> {
  const done = await db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', DEMO_CONTENT_MARKER)
    .executeTakeFirst()
  if (done) return false
  // The files first (a put under the same key is a no-op replacement): rows never point at nothing.
  const media = await Promise.all(
    DEMO_VIDEOS.map(async (video) => ({
      video,
      mp4: await putMedia(store, `${video.file}.mp4`, 'video/mp4'),
      poster: await putMedia(store, `${video.file}.jpg`, 'image/jpeg'),
    })),
  )
  return db.transaction().execute(async (trx) => {
    const claim = await trx
      .insertInto('seed_runs')
      .values({ name: DEMO_CONTENT_MARKER, ran_at: now.toISOString() })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst()
    if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return false
    const at = now.toISOString()
    const typeIds = new Map<string, string>()
    for (const [order, name] of DEMO_ARTICLE_TYPES.entries()) {
      const existing = await trx
        .selectFrom('article_types')
        .select('id')
        .where('name', '=', name)
        .executeTakeFirst()
      const id = existing?.id ?? randomUUID()
      if (!existing) {
        await trx
          .insertInto('article_types')
          .values({ id, name, sort_order: order, created_at: at })
          .execute()
      }
      typeIds.set(name, id)
    }
    const day = 24 * 3600_000
    await trx
      .insertInto('articles')
      .values(
        DEMO_ARTICLES.map((article, i) => {
          const clean = sanitiseArticleHtml(demoBodyHtml(article.body))
          const published = new Date(now.getTime() - i * day).toISOString()
          return {
            id: randomUUID(),
            type_id: typeIds.get(article.type)!,
            title: article.title,
            summary: article.summary,
            html: clean.html,
            plain_text: clean.plainText,
            cover_file_id: null,
            author: null,
            source: DEMO_SOURCE,
            state: 'published' as const,
            removed: JSON.stringify(clean.removed),
            demo: 1,
            published_at: published,
            created_at: published,
            updated_at: published,
            updated_by_user_id: null,
            read_count: 0,
            like_count: 0,
            favourite_count: 0,
          }
        }),
      )
      .execute()
    for (const [i, { video, mp4, poster }] of media.entries()) {
      const videoFile = randomUUID()
      const posterFile = randomUUID()
      await trx
        .insertInto('content_files')
        .values([
          {
            id: videoFile,
            kind: 'video',
            storage_key: mp4.key,
            mime_type: 'video/mp4',
            size_bytes: mp4.size,
            width: 640,
            height: 360,
            uploaded_by_user_id: null,
            created_at: at,
            attached_at: at,
          },
          {
            id: posterFile,
            kind: 'poster',
            storage_key: poster.key,
            mime_type: 'image/jpeg',
            size_bytes: poster.size,
            width: 640,
            height: 360,
            uploaded_by_user_id: null,
            created_at: at,
            attached_at: at,
          },
        ])
        .execute()
      const published = new Date(now.getTime() - i * day).toISOString()
      await trx
        .insertInto('videos')
        .values({
          id: randomUUID(),
          category: video.category,
          title: video.title,
          summary: video.summary,
          video_file_id: videoFile,
          poster_file_id: posterFile,
          duration_seconds: video.durationSeconds,
          state: 'published',
          demo: 1,
          published_at: published,
          created_at: published,
          updated_at: published,
          updated_by_user_id: null,
          play_count: 0,
          favourite_count: 0,
        })
        .execute()
    }
    return true
  })
}

/** Demo mode off: the demo articles and videos go, with their reads, likes, favourites and files. */
export async function removeDemoContent(db: DB, store: ObjectStore): Promise<number> {
  const articles = await db.selectFrom('articles').select('id').where('demo', '=', 1).execute()
  const videos = await db
    .selectFrom('videos')
    .select(['id', 'video_file_id', 'poster_file_id'])
    .where('demo', '=', 1)
    .execute()
  if (articles.length === 0 && videos.length === 0) return 0
  const fileIds = videos.flatMap((v) =>
    [v.video_file_id, v.poster_file_id].filter((id): id is string => id !== null),
  )
  const files = fileIds.length
    ? await db
        .selectFrom('content_files')
        .select('storage_key')
        .where('id', 'in', fileIds)
        .execute()
    : []
  await db.transaction().execute(async (trx) => {
    if (articles.length) {
      await trx
        .deleteFrom('favourites')
        .where('kind', '=', 'article')
        .where(
          'target_id',
          'in',
          articles.map((a) => a.id),
        )
        .execute()
      await trx.deleteFrom('articles').where('demo', '=', 1).execute()
    }
    if (videos.length) {
      await trx
        .deleteFrom('favourites')
        .where('kind', '=', 'video')
        .where(
          'target_id',
          'in',
          videos.map((v) => v.id),
        )
        .execute()
      await trx.deleteFrom('videos').where('demo', '=', 1).execute()
      await trx.deleteFrom('content_files').where('id', 'in', fileIds).execute()
    }
    await trx.deleteFrom('seed_runs').where('name', '=', DEMO_CONTENT_MARKER).execute()
  })
  for (const file of files) await store.delete(file.storage_key)
  return articles.length + videos.length
}
