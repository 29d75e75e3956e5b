import { z } from 'zod/mini'
import { IdSchema, OkSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * Favourites (收藏, `collectList/collectList`; SPEC section 7: the case service's favourites and the
 * articles' "collect and delete collect"). One list of kinds, so the consultation issue adds
 * `question` and `doctor` as two more kinds without changing the page: the server says each item's
 * title, subtitle, picture and where a tap goes.
 *
 * A favourite is a row per (person, kind, target) with a unique key; adding twice is one favourite,
 * and an item's favourite count moves only when the row was inserted or deleted (concurrent taps).
 * A record (`exam`) can be favourited only by whoever may see it (access.ts), and disappears from the
 * list when they no longer may.
 */

export const FAVOURITE_KINDS = [
  'article',
  'video',
  'hospital',
  'exam',
  'expert',
  'question',
] as const
export const FavouriteKindSchema = z.enum(FAVOURITE_KINDS)
export type FavouriteKind = z.infer<typeof FavouriteKindSchema>
export const FAVOURITE_KIND_LABELS: Record<FavouriteKind, string> = {
  article: '文章',
  video: '视频',
  hospital: '医院',
  exam: '影像',
  /** The consultation service's "collect doctor" (issue 20). */
  expert: '专家',
  /** The consultation service's "collect question": a public Q&A (issue 21). */
  question: '问答',
}

export const FavouriteSchema = z.object({
  kind: FavouriteKindSchema,
  targetId: z.string(),
  title: z.string(),
  subtitle: z.nullable(z.string()),
  /** A public picture path (article cover, video poster, hospital photo), or null. */
  picturePath: z.nullable(z.string()),
  createdAt: z.string(),
  /** Where a tap goes: a route name of src/routes.ts and its query. */
  link: z.object({ route: z.string(), params: z.record(z.string(), z.string()) }),
})
export type Favourite = z.infer<typeof FavouriteSchema>

export const listFavourites = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/favourites',
  input: z.extend(PageQuerySchema, { kind: FavouriteKindSchema }),
  /** Newest first. */
  output: z.extend(pageOf(FavouriteSchema), {
    /** Favourites of each kind, for the tabs' counts. */
    totals: z.record(FavouriteKindSchema, z.number()),
  }),
  auth: true,
  summary: '我的收藏（按类型分页）',
})

export const addFavourite = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/favourites',
  input: z.object({ kind: FavouriteKindSchema, targetId: IdSchema }),
  /** Idempotent; answers the item's favourite count after it. */
  output: z.object({ favourited: z.literal(true), count: z.number() }),
  auth: true,
  summary: '收藏',
})

export const removeFavourite = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/favourites/:kind/:targetId',
  input: z.object({ kind: FavouriteKindSchema, targetId: IdSchema }),
  /** Idempotent (撤销 puts it back with addFavourite, keeping no other state). */
  output: OkSchema,
  auth: true,
  summary: '取消收藏',
})
