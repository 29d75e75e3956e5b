import { Input, Text, View } from '@tarojs/components'
import { useEffect, useState } from 'react'
import { describeError } from '@/services/api'
import {
  addBookmark,
  BOOKMARK_NOTE_MAX_LENGTH,
  deleteBookmark,
  listBookmarks,
  type Bookmark,
} from '@/services/bookmarks'
import { showToast } from '@/platform/ui'

export interface BookmarkPanelProps {
  examId: string
  seriesUid: string
  sopInstanceUid: string
  /** 1-based */
  frame: number
  onClose: () => void
  onOpen: (bookmark: Bookmark) => void
}

/** 书签: the exam's bookmarks (open, delete) and a note to bookmark the slice on screen. */
export function BookmarkPanel(props: BookmarkPanelProps) {
  const { examId, seriesUid, sopInstanceUid, frame, onClose, onOpen } = props
  const [marks, setMarks] = useState<Bookmark[] | null>(null)
  const [failed, setFailed] = useState<string | null>(null)
  const [note, setNote] = useState('')
  const [saving, setSaving] = useState(false)

  useEffect(() => {
    let live = true
    listBookmarks(examId).then(
      (list) => live && setMarks(list),
      (error: unknown) => live && setFailed(describeError(error, '书签加载失败，请稍后重试')),
    )
    return () => {
      live = false
    }
  }, [examId])

  const save = async () => {
    if (saving) return
    if (note.length > BOOKMARK_NOTE_MAX_LENGTH) {
      showToast(`备注最多 ${BOOKMARK_NOTE_MAX_LENGTH} 个字`)
      return
    }
    setSaving(true)
    try {
      const mark = await addBookmark({
        examId,
        seriesUid,
        sopInstanceUid,
        frame,
        note: note.trim(),
      })
      setMarks((list) => [...(list ?? []), mark])
      setNote('')
      showToast('已加入书签')
    } catch {
      // The request wrapper already said why (a toast with the server's message).
    } finally {
      setSaving(false)
    }
  }

  const remove = async (mark: Bookmark) => {
    try {
      await deleteBookmark(mark.id)
      setMarks((list) => (list ?? []).filter((m) => m.id !== mark.id))
    } catch {
      // Told by the wrapper; the list stays as it is.
    }
  }

  return (
    <View className="bookmark-panel" catchMove>
      <View className="bookmark-panel__sheet">
        <View className="bookmark-panel__head">
          <Text className="bookmark-panel__title">书签</Text>
          <View className="bookmark-panel__close" onClick={onClose}>
            <Text>关闭</Text>
          </View>
        </View>
        <View className="bookmark-panel__add">
          <Input
            className="bookmark-panel__note"
            value={note}
            maxlength={BOOKMARK_NOTE_MAX_LENGTH}
            placeholder="给这一张写个备注（可不填）"
            onInput={(e) => setNote(e.detail.value)}
          />
          <View className="bookmark-panel__save" onClick={() => void save()}>
            <Text>{saving ? '保存中…' : '加入书签'}</Text>
          </View>
        </View>
        {failed && <Text className="bookmark-panel__empty">{failed}</Text>}
        {!failed && marks === null && <Text className="bookmark-panel__empty">加载中 ...</Text>}
        {marks?.length === 0 && <Text className="bookmark-panel__empty">还没有书签</Text>}
        {marks?.map((mark) => (
          <View key={mark.id} className="bookmark-panel__item">
            <View className="bookmark-panel__open" onClick={() => onOpen(mark)}>
              <Text className="bookmark-panel__note-text">{mark.note || '（无备注）'}</Text>
              <Text className="bookmark-panel__meta">
                {mark.createdAt.slice(0, 10)}
                {mark.frame > 1 ? ` · 第 ${mark.frame} 帧` : ''}
              </Text>
            </View>
            <View className="bookmark-panel__delete" onClick={() => void remove(mark)}>
              <Text>删除</Text>
            </View>
          </View>
        ))}
      </View>
    </View>
  )
}
