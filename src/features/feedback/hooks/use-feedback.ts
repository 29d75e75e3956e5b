import { useCallback, useState } from 'react'
import {
  FEEDBACK_CONTACT_MAX,
  FEEDBACK_IMAGES_MAX,
  FEEDBACK_MESSAGES,
  FEEDBACK_TEXT_MAX,
  FEEDBACK_TEXT_MIN,
} from '@contract/main/feedback'
import { usePagedList, type PagedList } from '@/components/refresh-list'
import { pickPhotos } from '@/platform/file-picker'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  addFeedback,
  type Feedback,
  type FeedbackType,
  listMyFeedback,
  uploadFeedbackImage,
} from '@/services/feedback'

export interface FeedbackImage {
  /** The picked file, shown while and after it uploads. */
  localPath: string
  id: string | null
  status: 'uploading' | 'done' | 'failed'
}

export interface FeedbackForm {
  type: FeedbackType | null
  setType: (type: FeedbackType) => void
  text: string
  setText: (text: string) => void
  contact: string
  setContact: (contact: string) => void
  images: FeedbackImage[]
  addImages: () => Promise<void>
  removeImage: (localPath: string) => void
  /** The first rule the form breaks, in the contract's words; null when it can be sent. */
  problem: string | null
  submitting: boolean
  submit: () => Promise<void>
  history: PagedList<Feedback>
}

/** 意见反馈: type, text (5–500), up to 6 pictures uploaded as they are picked, contact; then 我的反馈. */
export function useFeedback(): FeedbackForm {
  const [type, setType] = useState<FeedbackType | null>(null)
  const [text, setText] = useState('')
  const [contact, setContact] = useState('')
  const [images, setImages] = useState<FeedbackImage[]>([])
  const [submitting, setSubmitting] = useState(false)
  const history = usePagedList<Feedback>(async (page, pageSize) => {
    const answer = await listMyFeedback(page, pageSize)
    return { items: answer.items, total: answer.total }
  })

  const trimmed = text.trim()
  const problem =
    type === null
      ? '请选择反馈类型'
      : trimmed.length < FEEDBACK_TEXT_MIN
        ? FEEDBACK_MESSAGES.textShort
        : trimmed.length > FEEDBACK_TEXT_MAX
          ? FEEDBACK_MESSAGES.textLong
          : images.some((image) => image.status === 'uploading')
            ? '图片上传中，请稍候'
            : null

  const addImages = useCallback(async () => {
    const room = FEEDBACK_IMAGES_MAX - images.length
    if (room <= 0) return showToast(FEEDBACK_MESSAGES.tooManyImages)
    let paths: string[]
    try {
      paths = (await pickPhotos(room)).slice(0, room)
    } catch (error) {
      return showToast(describeError(error))
    }
    const fresh = paths.map((localPath) => ({ localPath, id: null, status: 'uploading' as const }))
    setImages((current) => [...current, ...fresh])
    for (const image of fresh) {
      try {
        const uploaded = await uploadFeedbackImage(image.localPath)
        setImages((current) =>
          current.map((one) =>
            one.localPath === image.localPath ? { ...one, id: uploaded.id, status: 'done' } : one,
          ),
        )
      } catch (error) {
        showToast(describeError(error, '图片上传失败，请重试'))
        setImages((current) => current.filter((one) => one.localPath !== image.localPath))
      }
    }
  }, [images.length])

  const submit = useCallback(async () => {
    if (problem) return showToast(problem)
    setSubmitting(true)
    try {
      await addFeedback({
        type: type!,
        text: trimmed,
        imageIds: images.flatMap((image) => (image.id ? [image.id] : [])),
        ...(contact.trim() ? { contact: contact.trim() } : {}),
      })
      setText('')
      setImages([])
      setType(null)
      showToast('感谢反馈，我们会尽快处理')
      await history.refresh()
    } catch (error) {
      // Nothing is lost: the text and pictures stay for another try.
      showToast(describeError(error, '提交失败，请稍后重试'))
    } finally {
      setSubmitting(false)
    }
  }, [problem, type, trimmed, images, contact, history])

  return {
    type,
    setType,
    text,
    setText: (value) => setText(value.slice(0, FEEDBACK_TEXT_MAX)),
    contact,
    setContact: (value) => setContact(value.slice(0, FEEDBACK_CONTACT_MAX)),
    images,
    addImages,
    removeImage: (localPath) =>
      setImages((current) => current.filter((one) => one.localPath !== localPath)),
    problem,
    submitting,
    submit,
    history,
  }
}
