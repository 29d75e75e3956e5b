import { useEffect, useState } from 'react'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import {
  type ArticleSummary,
  type ArticleType,
  listArticles,
  listArticleTypes,
} from '@/services/content'

export const ALL_TYPES = 'all'

/** 全部 first, then the server's types (only those with published articles, in operators' order). */
export function useArticleTypes(): { key: string; title: string }[] {
  const [types, setTypes] = useState<ArticleType[]>([])
  useEffect(() => {
    // The tabs are a convenience: if they fail, 全部 still lists everything.
    listArticleTypes().then(setTypes, () => undefined)
  }, [])
  return [
    { key: ALL_TYPES, title: '全部' },
    ...types.map((type) => ({ key: type.id, title: type.name })),
  ]
}

/** One tab's articles, newest first; the view mounts one per tab (keyed), so tabs never mix. */
export function useArticleList(typeKey: string): PagedList<ArticleSummary> {
  return usePagedList<ArticleSummary>(async (page, pageSize) => {
    const answer = await listArticles({
      page,
      pageSize,
      ...(typeKey === ALL_TYPES ? {} : { typeId: typeKey }),
    })
    return { items: answer.items, total: answer.total }
  })
}
