import { useCallback, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { HttpError } from '@/services/http'
import { addArticleRead, type ArticleDetail, getArticle, likeArticle } from '@/services/content'
import { addFavourite, removeFavourite } from '@/services/favourites'
import { useSessionStore } from '@/stores/session-store'
import { useToggle } from '@/hooks/use-toggle'

/** The server's words for an article it does not have (or no longer publishes). */
export const ARTICLE_MISSING = '文章不存在或已下架'

export interface ArticleModel {
  /** missing: no such article (or no id at all); retrying cannot help. */
  status: 'loading' | 'ready' | 'error' | 'missing'
  error: string
  article: ArticleDetail | null
  readCount: number
  like: ReturnType<typeof useToggle>
  favourite: ReturnType<typeof useToggle>
  signedIn: boolean
  retry: () => void
}

/** 资讯详情: the article, its read counted once on open, 赞 and 收藏. */
export function useArticle(articleId: string): ArticleModel {
  const signedIn = useSessionStore((state) => state.token !== null)
  const [readCount, setReadCount] = useState(0)
  const counted = useRef(false)

  const sendLike = useCallback(
    async (on: boolean) => (await likeArticle(articleId, on)).likeCount,
    [articleId],
  )
  const sendFavourite = useCallback(
    async (on: boolean) => {
      if (on) return addFavourite('article', articleId)
      await removeFavourite('article', articleId)
      return undefined
    },
    [articleId],
  )
  const like = useToggle({ on: false, count: 0 }, sendLike)
  const favourite = useToggle({ on: false, count: 0 }, sendFavourite)
  const { reset: resetLike } = like
  const { reset: resetFavourite } = favourite

  const resource = useResource(
    // No id at all: nothing to ask, the article is missing.
    articleId === '' ? null : articleId,
    async (signal) => {
      const found = await getArticle(articleId)
      if (signal.aborted) return found
      setReadCount(found.readCount)
      resetLike({ on: found.liked, count: found.likeCount })
      resetFavourite({ on: found.favourited, count: found.favouriteCount })
      if (!counted.current) {
        counted.current = true
        // Counted once per open; the server keeps it to once per reader per day.
        addArticleRead(articleId).then(
          (answer) => setReadCount(answer.readCount),
          () => undefined,
        )
      }
      return found
    },
    { errorMessage: '文章加载失败，请稍后重试' },
  )

  const missing =
    resource.status === 'idle' || (resource.status === 'error' && isMissing(resource.error))
  const status: ArticleModel['status'] = missing ? 'missing' : resource.status
  return {
    status,
    error: missing ? ARTICLE_MISSING : resource.status === 'error' ? resource.message : '',
    article: resource.status === 'ready' ? resource.data : null,
    readCount,
    like,
    favourite,
    signedIn,
    retry: () => void resource.reload(),
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof HttpError && error.statusCode === 404
}
