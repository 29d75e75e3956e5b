import type { ArticleCounts } from './article-counts'

/** H5 variant of article-counts.ts: the content contract loads after the first screen. */
export function loadArticleCounts(): Promise<ArticleCounts> {
  return import('@/services/content').then((content) => content.getMyArticleCounts())
}
