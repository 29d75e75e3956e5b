import { z } from 'zod/mini'
import { IdSchema, OkSchema, pageOf, PageQuerySchema } from '../common'
import { defineEndpoint } from '../endpoint'

/*
 * Health content (issue 10; SPEC section 7, main service "Articles: information list, article detail,
 * add read count, like, collect and delete collect, group by type, my article count, search"), and
 * the video shows of SPEC section 2 (videoShow 健康讲座, videoShowJJ 急救, videoShowYs 药膳).
 *
 * Content is published by operators (contract/main/operator.ts); in demo mode the seed writes
 * original articles and locally generated short videos, each marked 演示. Nothing else is seeded.
 *
 * Counts stay right under concurrent taps: a like or a favourite is a row per (person, item) with a
 * unique key, and the item's counter moves in the same transaction only when that row was inserted
 * or deleted. A read counts once per reader per day (China's date): a signed-in reader by account,
 * anyone else by the random reader id the app keeps (`X-Reader-Id`, 32 characters).
 */

/** Lists use the spec's page size (section 9: 10). */
export const CONTENT_PAGE_SIZE = 10

/** Article body: the sanitised HTML the server stores and serves (an allow-list, see below). */
export const ARTICLE_TAGS = [
  'p',
  'br',
  'h2',
  'h3',
  'strong',
  'em',
  'ul',
  'ol',
  'li',
  'blockquote',
  'img',
  'a',
  'table',
  'thead',
  'tbody',
  'tr',
  'th',
  'td',
] as const
/** Attributes kept, per tag; everything else (style, on*, class, id) is dropped. */
export const ARTICLE_ATTRIBUTES: Record<string, readonly string[]> = {
  img: ['src', 'alt', 'width', 'height'],
  a: ['href'],
}
export const ARTICLE_TITLE_MAX = 60
export const ARTICLE_SUMMARY_MAX = 140
/** Stored body size after sanitising (bytes of UTF-8). */
export const ARTICLE_BODY_MAX_BYTES = 200_000

export const ArticleTypeSchema = z.object({
  id: z.string(),
  /** 疾病科普, 影像检查, 健康生活, 用药安全, 急救常识 … (operators name them). */
  name: z.string(),
  /** Published articles of this type. */
  count: z.number(),
})
export type ArticleType = z.infer<typeof ArticleTypeSchema>

export const ArticleSummarySchema = z.object({
  id: z.string(),
  typeId: z.string(),
  typeName: z.string(),
  title: z.string(),
  summary: z.string(),
  /** An authorised-free public image path (`/media/…`), or null. */
  coverPath: z.nullable(z.string()),
  publishedAt: z.string(),
  readCount: z.number(),
  likeCount: z.number(),
  /** Seed content of demo mode, shown with a 演示 mark. */
  demo: z.boolean(),
})
export type ArticleSummary = z.infer<typeof ArticleSummarySchema>

export const ArticleDetailSchema = z.extend(ArticleSummarySchema, {
  /** Sanitised HTML (ARTICLE_TAGS / ARTICLE_ATTRIBUTES; img src only our /media or https). */
  html: z.string(),
  author: z.nullable(z.string()),
  /** 来源 line: who wrote or reviewed it. */
  source: z.nullable(z.string()),
  favouriteCount: z.number(),
  /** The caller's own state (false when signed out). */
  liked: z.boolean(),
  favourited: z.boolean(),
})
export type ArticleDetail = z.infer<typeof ArticleDetailSchema>

export const listArticleTypes = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/articles/types',
  input: z.object({}),
  /** Types with at least one published article, in the operators' order. */
  output: z.array(ArticleTypeSchema),
  auth: false,
  summary: '资讯分类（按类型分组，含每类篇数）',
})

export const listArticles = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/articles',
  input: z.extend(PageQuerySchema, { typeId: z.optional(IdSchema) }),
  /** Published, newest first. */
  output: pageOf(ArticleSummarySchema),
  auth: false,
  summary: '资讯列表（可按分类，分页）',
})

export const getArticle = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/articles/:articleId',
  input: z.object({ articleId: IdSchema }),
  output: ArticleDetailSchema,
  auth: false,
  summary: '资讯详情（正文为白名单过滤后的 HTML）',
})

export const addArticleRead = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/articles/:articleId/read',
  input: z.object({ articleId: IdSchema }),
  /** counted: false when this reader already read it today. */
  output: z.object({ readCount: z.number(), counted: z.boolean() }),
  auth: false,
  summary: '增加阅读数（每位读者每天一次）',
})

export const likeArticle = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/articles/:articleId/like',
  /** The state wanted (idempotent: two taps of 赞 are one like). */
  input: z.object({ articleId: IdSchema, liked: z.boolean() }),
  output: z.object({ liked: z.boolean(), likeCount: z.number() }),
  auth: true,
  summary: '点赞 / 取消点赞',
})

export const getMyArticleCounts = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/articles/mine/counts',
  input: z.object({}),
  output: z.object({ read: z.number(), liked: z.number(), favourited: z.number() }),
  auth: true,
  summary: '我的文章数（读过、赞过、收藏）',
})

// ---------------------------------------------------------------------------------------------------
// Videos

export const VIDEO_CATEGORIES = ['talk', 'firstAid', 'diet'] as const
export const VideoCategorySchema = z.enum(VIDEO_CATEGORIES)
export type VideoCategory = z.infer<typeof VideoCategorySchema>
/** The three video pages of SPEC section 2. */
export const VIDEO_CATEGORY_LABELS: Record<VideoCategory, string> = {
  talk: '健康讲座',
  firstAid: '急救知识',
  diet: '药膳食疗',
}

export const VideoSummarySchema = z.object({
  id: z.string(),
  category: VideoCategorySchema,
  title: z.string(),
  summary: z.string(),
  posterPath: z.nullable(z.string()),
  durationSeconds: z.number(),
  publishedAt: z.string(),
  playCount: z.number(),
  demo: z.boolean(),
})
export type VideoSummary = z.infer<typeof VideoSummarySchema>

export const VideoDetailSchema = z.extend(VideoSummarySchema, {
  /** Public media path served with HTTP range requests (`/media/videos/…`). */
  videoPath: z.string(),
  mimeType: z.string(),
  /** Where this viewer stopped last time (seconds; 0 when never, or watched to the end). */
  resumeAt: z.number(),
  favourited: z.boolean(),
})
export type VideoDetail = z.infer<typeof VideoDetailSchema>

export const listVideos = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/videos',
  input: z.extend(PageQuerySchema, { category: VideoCategorySchema }),
  output: pageOf(VideoSummarySchema),
  auth: false,
  summary: '视频列表（健康讲座、急救知识、药膳食疗）',
})

export const getVideo = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/videos/:videoId',
  input: z.object({ videoId: IdSchema }),
  output: VideoDetailSchema,
  auth: false,
  summary: '视频详情（含上次看到的位置）',
})

export const saveVideoPosition = defineEndpoint({
  service: 'main',
  method: 'PUT',
  path: '/videos/:videoId/position',
  input: z.object({
    videoId: IdSchema,
    seconds: z.coerce.number().check(z.minimum(0, '播放位置不能为负')),
  }),
  output: OkSchema,
  auth: true,
  summary: '记住看到哪里（下次从这里继续）',
})

// ---------------------------------------------------------------------------------------------------
// Search

export const SEARCH_KINDS = ['article', 'video', 'hospital', 'expert'] as const
export const SearchKindSchema = z.enum(SEARCH_KINDS)
export type SearchKind = z.infer<typeof SearchKindSchema>
export const SEARCH_QUERY_MAX = 30
export const SEARCH_HISTORY_MAX = 20

export const SearchQuerySchema = z
  .string({ error: '请输入要搜索的内容' })
  .check(
    z.trim(),
    z.minLength(1, '请输入要搜索的内容'),
    z.maxLength(SEARCH_QUERY_MAX, `搜索内容最多 ${SEARCH_QUERY_MAX} 个字`),
  )

/** A matched text cut into runs, so the app highlights without HTML: [['磨玻璃', false], ['肺结节', true]]. */
export const HighlightSchema = z.array(z.tuple([z.string(), z.boolean()]))

export const SearchHitSchema = z.object({
  kind: SearchKindSchema,
  id: z.string(),
  title: HighlightSchema,
  /** The best matching snippet of the text (article summary or body, hospital address …). */
  snippet: HighlightSchema,
  /** Where a tap goes: a route name of src/routes.ts and its query. */
  link: z.object({ route: z.string(), params: z.record(z.string(), z.string()) }),
})
export type SearchHit = z.infer<typeof SearchHitSchema>

export const search = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/search',
  input: z.extend(PageQuerySchema, {
    q: SearchQuerySchema,
    /** One kind, paged; absent: the first few of every kind. */
    kind: z.optional(SearchKindSchema),
  }),
  output: z.object({
    hits: z.array(SearchHitSchema),
    /** Matches of each kind (for the tabs). */
    totals: z.record(SearchKindSchema, z.number()),
  }),
  /** Signed in: the query joins the person's history. */
  auth: false,
  summary: '搜索（文章、视频、医院、专家；中文部分词可匹配）',
})

export const SearchHistoryItemSchema = z.object({
  id: z.string(),
  q: z.string(),
  at: z.string(),
})

export const listSearchHistory = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/search/history',
  input: z.object({}),
  /** Newest first, SEARCH_HISTORY_MAX at most, one per distinct query. */
  output: z.array(SearchHistoryItemSchema),
  auth: true,
  summary: '我的搜索记录',
})

export const clearSearchHistory = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/search/history',
  /** One entry by id, or all when absent. */
  input: z.object({ id: z.optional(IdSchema) }),
  output: OkSchema,
  auth: true,
  summary: '删除搜索记录（一条或全部）',
})

export const listHotSearches = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/search/hot',
  input: z.object({}),
  /** Operators' picks first, then the most searched of the last 7 days; 10 at most. */
  output: z.array(z.string()),
  auth: false,
  summary: '热门搜索',
})
