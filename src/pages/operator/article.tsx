import { useParams } from '@/hooks/use-params'
import { RequireLogin } from '../../components/require-login'
import { ArticleEditorView } from '../../features/operator/components/article-editor'
import { OperatorsOnly } from '../../features/operator/components/operators-only'
import { useArticleEditor } from '../../features/operator/hooks/use-article-editor'

function Editor({ id }: { id: string | undefined }) {
  return <ArticleEditorView editor={useArticleEditor(id)} />
}

/** 编辑文章 (H5 only): a new article without `id`, else that one. */
export default function OperatorArticlePage() {
  const params = useParams()
  return (
    <RequireLogin text="运营人员请先登录">
      <OperatorsOnly>
        <Editor id={params.id || undefined} />
      </OperatorsOnly>
    </RequireLogin>
  )
}
