import { useState } from 'react'
import { OPERATOR_MESSAGES } from '@contract/main/operator'
import { useResource } from '@/hooks/use-resource'
import { showToast } from '@/platform/ui'
import { operatorApi, type OperatorArticle } from '@/services/operator'
import { act, useUpload, type Upload } from './use-operator'

export interface ArticleEditor {
  status: 'loading' | 'ready' | 'error'
  error: string | null
  types: { id: string; name: string }[]
  typeId: string
  setTypeId: (id: string) => void
  title: string
  setTitle: (text: string) => void
  summary: string
  setSummary: (text: string) => void
  html: string
  setHtml: (text: string) => void
  cover: Upload
  /** The last save: its state and what the sanitiser removed. */
  saved: OperatorArticle | null
  save: (publish: boolean) => Promise<void>
}

/** Writes a new article (no id) or edits one; saving never publishes unless asked. */
export function useArticleEditor(articleId: string | undefined): ArticleEditor {
  const [types, setTypes] = useState<{ id: string; name: string }[]>([])
  const [typeId, setTypeId] = useState('')
  const [title, setTitle] = useState('')
  const [summary, setSummary] = useState('')
  const [html, setHtml] = useState('')
  const [saved, setSaved] = useState<OperatorArticle | null>(null)
  const cover = useUpload('cover')

  // The types and the article are the one thing loaded; the form they fill is this editor's own.
  const loaded = useResource(articleId ?? '', async (signal) => {
    const [allTypes, article] = await Promise.all([
      operatorApi.articleTypes(),
      articleId ? operatorApi.article(articleId) : Promise.resolve(null),
    ])
    if (signal.aborted) return null
    setTypes(allTypes)
    setTypeId(article?.typeId ?? allTypes[0]?.id ?? '')
    if (article) {
      setTitle(article.title)
      setSummary(article.summary)
      setHtml(article.html)
      setSaved(article)
    }
    return null
  })

  const save = async (publish: boolean) => {
    if (!title.trim()) return showToast(OPERATOR_MESSAGES.titleRequired)
    if (!html.trim()) return showToast(OPERATOR_MESSAGES.bodyRequired)
    const id = saved?.id ?? articleId
    const answer = await act(
      async () => {
        const draft = await operatorApi.saveArticle({
          ...(id ? { id } : {}),
          typeId,
          title: title.trim(),
          summary: summary.trim(),
          html,
          ...(cover.id ? { coverImageId: cover.id } : {}),
        })
        return publish ? operatorApi.setArticleState(draft.id, 'published') : draft
      },
      publish ? '已保存并发布' : '已保存',
    )
    if (answer) {
      setSaved(answer)
      setHtml(answer.html)
    }
  }

  return {
    status: loaded.status,
    error: loaded.status === 'error' ? loaded.message : null,
    types,
    typeId,
    setTypeId,
    title,
    setTitle,
    summary,
    setSummary,
    html,
    setHtml,
    cover,
    saved,
    save,
  }
}
