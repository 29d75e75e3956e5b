import { CONTENT_PAGE_SIZE } from '@contract/main/content'
import { FAVOURITE_KINDS, type Favourite, type FavouriteKind } from '@contract/main/favourites'
import type { FieldCipher } from '../crypto/field-cipher'
import type { DB } from '../db'
import { type PageQuery, pageWindow } from '../db/paging'
import { notFound } from '../http/errors'
import { mediaPath } from './content'
import { CARD_COLUMNS, expertLine, expertPhoto, publicExperts } from './experts'
import { findVisibleExam } from './records'

/*
 * Favourites (收藏, contract/main/favourites.ts): one row per (person, kind, target). Adding twice
 * is one favourite, and an article's or a video's favourite_count moves in the same transaction,
 * only when the row was inserted or deleted. What a favourite shows is read from its target each
 * time; a target that is gone, unpublished or no longer visible to the person is left out of the
 * list (its row stays, so it comes back if the article is published again or a grant returns).
 */

export const FAVOURITE_TARGET_NOT_FOUND = '要收藏的内容不存在或已下架'

interface Resolved {
  title: string
  subtitle: string | null
  picturePath: string | null
  link: Favourite['link']
}

/** Which table holds a kind's counter (kinds without one keep no count). */
const COUNTED = { article: 'articles', video: 'videos' } as const

async function resolve(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  kind: FavouriteKind,
  targetId: string,
): Promise<Resolved | undefined> {
  switch (kind) {
    case 'article': {
      const row = await db
        .selectFrom('articles')
        .innerJoin('article_types', 'article_types.id', 'articles.type_id')
        .select(['articles.title', 'articles.cover_file_id', 'article_types.name'])
        .where('articles.id', '=', targetId)
        .where('articles.state', '=', 'published')
        .executeTakeFirst()
      return row
        ? {
            title: row.title,
            subtitle: row.name,
            picturePath: mediaPath(row.cover_file_id),
            link: { route: 'infoDetail', params: { id: targetId } },
          }
        : undefined
    }
    case 'video': {
      const row = await db
        .selectFrom('videos')
        .select(['title', 'poster_file_id', 'category', 'duration_seconds'])
        .where('id', '=', targetId)
        .where('state', '=', 'published')
        .executeTakeFirst()
      if (!row) return undefined
      const minutes = Math.floor(Number(row.duration_seconds) / 60)
      const seconds = String(Number(row.duration_seconds) % 60).padStart(2, '0')
      return {
        title: row.title,
        subtitle: `时长 ${minutes}:${seconds}`,
        picturePath: mediaPath(row.poster_file_id),
        link: {
          route: row.category === 'diet' ? 'videoShowYsDetail' : 'videoShowDetail',
          params: { id: targetId },
        },
      }
    }
    case 'hospital': {
      const row = await db
        .selectFrom('hospitals')
        .select(['name', 'level', 'city', 'address'])
        .where('id', '=', targetId)
        .executeTakeFirst()
      return row
        ? {
            title: row.name,
            subtitle: [row.level, row.city, row.address].filter(Boolean).join(' · '),
            picturePath: null,
            link: { route: 'hospitalList', params: { hospitalId: targetId } },
          }
        : undefined
    }
    case 'expert': {
      // Only a public expert: a suspended one leaves the list until resumed (its row stays).
      const row = await publicExperts(db)
        .select(CARD_COLUMNS)
        .where('experts.user_id', '=', targetId)
        .executeTakeFirst()
      return row
        ? {
            title: row.name ?? '',
            subtitle: expertLine(row),
            picturePath: expertPhoto(row),
            link: { route: 'personalDetail', params: { id: targetId } },
          }
        : undefined
    }
    case 'question': {
      // Only while its asker keeps it public (公开到专家主页) and its expert is public.
      const row = await publicExperts(db)
        .innerJoin('consultations', 'consultations.expert_user_id', 'experts.user_id')
        .select([
          'consultations.chief_complaint',
          'consultations.service',
          'experts.name',
          'experts.user_id',
        ])
        .where('consultations.id', '=', targetId)
        .where('consultations.published_at', 'is not', null)
        .where('consultations.deleted_by_patient_at', 'is', null)
        .where('consultations.state', '=', 'completed')
        .executeTakeFirst()
      return row
        ? {
            title: row.chief_complaint,
            subtitle: `${row.name ?? ''}医生的回答 · ${row.service === 'imaging' ? '影像会诊' : '图文咨询'}`,
            picturePath: null,
            link: { route: 'personalDetail', params: { id: row.user_id } },
          }
        : undefined
    }
    case 'exam': {
      try {
        const exam = await findVisibleExam(db, cipher, { kind: 'user', userId }, targetId)
        return {
          title: exam.title ?? exam.description ?? `${exam.modalities} 检查`,
          subtitle: [exam.study_date, exam.hospital_text].filter(Boolean).join(' · ') || null,
          picturePath: null,
          link: { route: 'imageDetail', params: { id: targetId } },
        }
      } catch {
        return undefined
      }
    }
  }
}

export async function listFavourites(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  query: PageQuery & { kind: FavouriteKind },
) {
  // Not page(): the total comes from the per-kind counts the tabs need anyway, one grouped query.
  const { page, pageSize, offset } = pageWindow(query, CONTENT_PAGE_SIZE)
  const [rows, counts] = await Promise.all([
    db
      .selectFrom('favourites')
      .select(['target_id', 'created_at'])
      .where('user_id', '=', userId)
      .where('kind', '=', query.kind)
      .orderBy('created_at', 'desc')
      .orderBy('target_id', 'desc')
      .limit(pageSize)
      .offset(offset)
      .execute(),
    db
      .selectFrom('favourites')
      .select('kind')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .groupBy('kind')
      .execute(),
  ])
  const items: Favourite[] = []
  for (const row of rows) {
    const shown = await resolve(db, cipher, userId, query.kind, row.target_id)
    if (shown)
      items.push({ kind: query.kind, targetId: row.target_id, createdAt: row.created_at, ...shown })
  }
  const totals = Object.fromEntries(FAVOURITE_KINDS.map((kind) => [kind, 0])) as Record<
    FavouriteKind,
    number
  >
  for (const count of counts) {
    if ((FAVOURITE_KINDS as readonly string[]).includes(count.kind))
      totals[count.kind as FavouriteKind] = Number(count.n)
  }
  return { items, total: totals[query.kind], page, pageSize, totals }
}

async function countOf(db: DB, kind: FavouriteKind, targetId: string): Promise<number> {
  const table = COUNTED[kind as keyof typeof COUNTED]
  if (table) {
    const row = await db
      .selectFrom(table)
      .select('favourite_count')
      .where('id', '=', targetId)
      .executeTakeFirst()
    return Number(row?.favourite_count ?? 0)
  }
  const row = await db
    .selectFrom('favourites')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('kind', '=', kind)
    .where('target_id', '=', targetId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

export async function addFavourite(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  kind: FavouriteKind,
  targetId: string,
  now: Date,
): Promise<number> {
  if (!(await resolve(db, cipher, userId, kind, targetId)))
    throw notFound(FAVOURITE_TARGET_NOT_FOUND)
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto('favourites')
      .values({ user_id: userId, kind, target_id: targetId, created_at: now.toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'kind', 'target_id']).doNothing())
      .executeTakeFirst()
    const table = COUNTED[kind as keyof typeof COUNTED]
    if (table && Number(inserted.numInsertedOrUpdatedRows ?? 0n) === 1) {
      await trx
        .updateTable(table)
        .set((eb) => ({ favourite_count: eb('favourite_count', '+', 1) }))
        .where('id', '=', targetId)
        .execute()
    }
    return countOf(trx, kind, targetId)
  })
}

export async function removeFavourite(
  db: DB,
  userId: string,
  kind: FavouriteKind,
  targetId: string,
): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const deleted = await trx
      .deleteFrom('favourites')
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .where('target_id', '=', targetId)
      .executeTakeFirst()
    const table = COUNTED[kind as keyof typeof COUNTED]
    if (table && Number(deleted.numDeletedRows) === 1) {
      await trx
        .updateTable(table)
        .set((eb) => ({ favourite_count: eb('favourite_count', '-', 1) }))
        .where('id', '=', targetId)
        .execute()
    }
  })
}
