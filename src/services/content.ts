import type { InputOf, OutputOf } from '@contract/endpoint'
import {
  addArticleRead as addArticleReadEndpoint,
  type ArticleDetail,
  type ArticleSummary,
  type ArticleType,
  clearSearchHistory as clearSearchHistoryEndpoint,
  getArticle as getArticleEndpoint,
  getMyArticleCounts as getMyArticleCountsEndpoint,
  getVideo as getVideoEndpoint,
  likeArticle as likeArticleEndpoint,
  listArticles as listArticlesEndpoint,
  listArticleTypes as listArticleTypesEndpoint,
  listHotSearches as listHotSearchesEndpoint,
  listSearchHistory as listSearchHistoryEndpoint,
  listVideos as listVideosEndpoint,
  saveVideoPosition as saveVideoPositionEndpoint,
  search as searchEndpoint,
  type SearchHit,
  type SearchKind,
  VIDEO_CATEGORY_LABELS,
  type VideoCategory,
  type VideoDetail,
  type VideoSummary,
} from '@contract/main/content'
import { readerId } from './reader-id'
import { callEndpoint, type CallOptions } from './api'

/** Health articles, videos and search (contract/main/content.ts). */

export type {
  ArticleDetail,
  ArticleSummary,
  ArticleType,
  SearchHit,
  SearchKind,
  VideoCategory,
  VideoDetail,
  VideoSummary,
}
export { VIDEO_CATEGORY_LABELS }

export type ArticlePage = OutputOf<typeof listArticlesEndpoint>
export type SearchAnswer = OutputOf<typeof searchEndpoint>

// Lists and pages draw their own loading state.
const QUIET: CallOptions = { loading: false }

export function listArticleTypes(): Promise<ArticleType[]> {
  return callEndpoint(listArticleTypesEndpoint, {}, QUIET)
}

export function listArticles(query: InputOf<typeof listArticlesEndpoint>): Promise<ArticlePage> {
  return callEndpoint(listArticlesEndpoint, query, QUIET)
}

export function getArticle(articleId: string): Promise<ArticleDetail> {
  return callEndpoint(getArticleEndpoint, { articleId }, QUIET)
}

/**
 * Counts this reader's read (once a day on the server). Signed out, the app's random reader id
 * stands in for an account; a failure is not worth a toast.
 */
export function addArticleRead(articleId: string) {
  return callEndpoint(
    addArticleReadEndpoint,
    { articleId },
    { loading: false, quietOffline: true, header: { 'X-Reader-Id': readerId() } },
  )
}

export function likeArticle(articleId: string, liked: boolean) {
  return callEndpoint(likeArticleEndpoint, { articleId, liked }, QUIET)
}

export function getMyArticleCounts() {
  return callEndpoint(getMyArticleCountsEndpoint, {}, { loading: false, quietOffline: true })
}

export function listVideos(query: InputOf<typeof listVideosEndpoint>) {
  return callEndpoint(listVideosEndpoint, query, QUIET)
}

export function getVideo(videoId: string): Promise<VideoDetail> {
  return callEndpoint(getVideoEndpoint, { videoId }, QUIET)
}

/** Where the viewer stopped; in the background, never a toast (the next save tries again). */
export async function saveVideoPosition(videoId: string, seconds: number): Promise<void> {
  await callEndpoint(
    saveVideoPositionEndpoint,
    { videoId, seconds },
    { loading: false, quietOffline: true },
  )
}

export function search(query: InputOf<typeof searchEndpoint>): Promise<SearchAnswer> {
  return callEndpoint(searchEndpoint, query, QUIET)
}

export function listSearchHistory() {
  return callEndpoint(listSearchHistoryEndpoint, {}, { loading: false, quietOffline: true })
}

export async function clearSearchHistory(id?: string): Promise<void> {
  await callEndpoint(clearSearchHistoryEndpoint, id ? { id } : {}, QUIET)
}

export function listHotSearches() {
  return callEndpoint(listHotSearchesEndpoint, {}, { loading: false, quietOffline: true })
}
