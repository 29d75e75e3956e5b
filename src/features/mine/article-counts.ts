import { getMyArticleCounts } from '@/services/content'

export interface ArticleCounts {
  read: number
  liked: number
  favourited: number
}

/**
 * 我的文章 counts on Mine (articles read, liked, favourited), quietly. The H5 build swaps in
 * article-counts.h5.ts, which loads the content contract after the first screen.
 */
export function loadArticleCounts(): Promise<ArticleCounts> {
  return getMyArticleCounts()
}
