import { Text, View } from '@tarojs/components'
import { Button, Input, TextArea } from '@nutui/nutui-react-taro'
import { ARTICLE_SUMMARY_MAX, ARTICLE_TAGS, ARTICLE_TITLE_MAX } from '@contract/main/content'
import { PageState } from '@/components/page-state'
import type { ArticleEditor } from '../hooks/use-article-editor'
import './operator.scss'

/** 编辑文章: type, title, summary, the body as HTML (the server keeps only the allowed tags). */
export function ArticleEditorView({ editor }: { editor: ArticleEditor }) {
  if (editor.status === 'loading') return <PageState status="loading" />
  if (editor.status === 'error')
    return <PageState status="error" message={editor.error ?? undefined} />
  const saved = editor.saved
  return (
    <View className="operator operator__form operator__form--page">
      {saved && (
        <Text className="operator__meta">
          当前状态：
          <Text className={`operator__state operator__state--${saved.state}`}>
            {saved.stateLabel}
          </Text>
        </Text>
      )}
      <View className="operator__chips" role="radiogroup" aria-label="分类">
        {editor.types.map((type) => (
          <View
            key={type.id}
            role="radio"
            aria-checked={type.id === editor.typeId}
            className={`operator__chip${type.id === editor.typeId ? ' operator__chip--on' : ''}`}
            onClick={() => editor.setTypeId(type.id)}
          >
            {type.name}
          </View>
        ))}
      </View>
      <Input
        className="operator__input"
        value={editor.title}
        placeholder="标题"
        maxLength={ARTICLE_TITLE_MAX}
        onChange={editor.setTitle}
      />
      <TextArea
        className="operator__area"
        value={editor.summary}
        placeholder="摘要（选填，空着则取正文开头）"
        maxLength={ARTICLE_SUMMARY_MAX}
        onChange={editor.setSummary}
      />
      <TextArea
        className="operator__area operator__area--body"
        value={editor.html}
        placeholder="正文（HTML，如 <p>段落</p><h2>小标题</h2>）"
        maxLength={-1}
        onChange={editor.setHtml}
      />
      <Text className="operator__hint">
        可用标签：{ARTICLE_TAGS.join('、')}。其他标签和脚本会被移除。
      </Text>
      {saved && saved.removed.length > 0 && (
        <View className="operator__removed" role="alert">
          <Text>上次保存时已移除：{saved.removed.join('、')}</Text>
        </View>
      )}
      <View className="operator__actions">
        <Button size="small" loading={editor.cover.busy} onClick={() => void editor.cover.pick()}>
          {editor.cover.id ? '重新选择封面' : '上传封面'}
        </Button>
        <Text className="operator__meta">
          {editor.cover.id
            ? editor.cover.name
            : saved?.coverPath
              ? '已有封面（不选则保留）'
              : 'JPG / PNG，选填'}
        </Text>
      </View>
      <View className="operator__actions">
        <Button onClick={() => void editor.save(false)}>保存草稿</Button>
        <Button type="primary" onClick={() => void editor.save(true)}>
          保存并发布
        </Button>
      </View>
    </View>
  )
}
