import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { type Resource, useResource } from '@/hooks/use-resource'
import { pickPhotos } from '@/platform/file-picker'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  type ConsultDetail,
  type ConsultMessage,
  getConsultation,
  listConsultMessages,
  markConsultRead,
  sendConsultMessage,
  type SendMessageInput,
} from '@/services/consultations'
import { guid } from '@/utils/guid'
import {
  cursorOf,
  lastSeqOf,
  mergeMessages,
  type OutgoingContent,
  type PendingMessage,
  visiblePending,
} from '../merge'
import { CONVERSATION_TEXTS } from '../texts'
import { uploadConversationPicture } from '../upload-picture'
import { useLiveRefresh } from './use-live-refresh'

/** Messages read per request; a longer gap is read in several. */
const PAGE_LIMIT = 50
/** A gap longer than this many pages waits for the next refresh. */
const MAX_PAGES_PER_REFRESH = 10

export interface ConversationModel {
  detail: Resource<ConsultDetail>
  /** The server's messages, by seq. */
  messages: ConsultMessage[]
  /** Sends still on the way or failed, after the messages. */
  pending: PendingMessage[]
  /** The first read: loading until it answers, error (with 重试) if it failed. */
  status: 'loading' | 'ready' | 'error'
  error: string | null
  /** Reads what came after the cursor (and the detail, when the state may have changed). */
  refresh: () => Promise<void>
  sendText: (text: string) => Promise<boolean>
  sendPicture: () => Promise<void>
  sendRecord: (record: { kind: 'exam' | 'report'; id: string }, title: string) => Promise<void>
  /** Sends a failed message again with its own clientId: the server keeps it once. */
  retry: (clientId: string) => Promise<void>
  /** After the expert's signed answer (the answer form's call): into the list at once. */
  received: (message: ConsultMessage) => void
}

export const newClientId = () => `c${guid(23, false)}`

function inputOf(consultationId: string, clientId: string, content: OutgoingContent) {
  const input: SendMessageInput = { consultationId, clientId }
  if (content.kind === 'text') input.text = content.text
  if (content.kind === 'picture') input.pictureId = content.pictureId
  if (content.kind === 'record') input.record = content.record
  return input
}

/** Messages that change what the consultation is (its state, its buttons): read the detail again. */
const changesDetail = (message: ConsultMessage) =>
  message.kind === 'system' || message.kind === 'answer' || message.kind === 'addendum'

/**
 * One consultation's conversation, shared by the patient and the expert. Messages are read by cursor
 * (`after` the last seq; see merge.ts cursorOf), so `refresh()` may be called as often as anything
 * says there may be news (useLiveRefresh: page show and the 5 s fallback, later the socket) and a
 * message never shows twice. Reading marks what the other side wrote as read up to the last seq.
 */
export function useConsultConversation(consultationId: string): ConversationModel {
  const detail = useResource(`consultation:${consultationId}`, () =>
    getConsultation(consultationId),
  )
  const { reload: reloadDetail } = detail
  const [messages, setMessages] = useState<ConsultMessage[]>([])
  const [pendingAll, setPending] = useState<PendingMessage[]>([])
  const [status, setStatus] = useState<'loading' | 'ready' | 'error'>('loading')
  const [error, setError] = useState<string | null>(null)

  const messagesRef = useRef(messages)
  messagesRef.current = messages
  const pendingRef = useRef(pendingAll)
  pendingRef.current = pendingAll
  const reading = useRef<Promise<void> | null>(null)
  const again = useRef(false)
  const markedSeq = useRef(0)
  const alive = useRef(true)
  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  const markRead = useCallback(
    (list: readonly ConsultMessage[]) => {
      const last = lastSeqOf(list)
      const theirs = list.some((message) => !message.mine && message.seq > markedSeq.current)
      if (!theirs || last <= markedSeq.current) return
      markedSeq.current = last
      markConsultRead(consultationId, last).catch(() => {
        // Not marked: the next read tries again.
        markedSeq.current = 0
      })
    },
    [consultationId],
  )

  const readOnce = useCallback(async () => {
    let list = messagesRef.current
    let detailChanged = false
    for (let page = 0; page < MAX_PAGES_PER_REFRESH; page += 1) {
      const answer = await listConsultMessages({
        consultationId,
        after: cursorOf(list),
        limit: PAGE_LIMIT,
      })
      const fresh = answer.items.filter((message) => !list.some((known) => known.id === message.id))
      if (fresh.some(changesDetail)) detailChanged = true
      list = mergeMessages(list, answer.items)
      if (!answer.more) break
    }
    if (!alive.current) return
    messagesRef.current = list
    setMessages(list)
    setStatus('ready')
    setError(null)
    markRead(list)
    if (detailChanged) void reloadDetail()
  }, [consultationId, markRead, reloadDetail])

  // One read at a time; a refresh asked for meanwhile runs once more after it.
  const refresh = useCallback(async (): Promise<void> => {
    if (reading.current) {
      again.current = true
      return reading.current
    }
    const run = (async () => {
      do {
        again.current = false
        try {
          await readOnce()
        } catch (cause) {
          if (!alive.current) return
          if (messagesRef.current.length === 0) {
            setStatus('error')
            setError(describeError(cause, '消息加载失败'))
          }
        }
      } while (again.current && alive.current)
    })()
    reading.current = run
    try {
      await run
    } finally {
      reading.current = null
    }
  }, [readOnce])

  useEffect(() => {
    void refresh()
  }, [refresh])
  useLiveRefresh(() => void refresh(), { consultationId })

  const deliver = useCallback(
    async (clientId: string, content: OutgoingContent) => {
      try {
        const sent = await sendConsultMessage(inputOf(consultationId, clientId, content))
        const list = mergeMessages(messagesRef.current, [sent])
        messagesRef.current = list
        setMessages(list)
        setPending((current) => current.filter((one) => one.clientId !== clientId))
        return true
      } catch (cause) {
        const message = describeError(cause, '发送失败')
        setPending((current) =>
          current.map((one) =>
            one.clientId === clientId ? { ...one, status: 'failed', error: message } : one,
          ),
        )
        showToast(message)
        return false
      }
    },
    [consultationId],
  )

  const send = useCallback(
    (content: OutgoingContent) => {
      const clientId = newClientId()
      const afterSeq = lastSeqOf(messagesRef.current)
      setPending((current) => [
        ...current,
        { clientId, content, status: 'sending', afterSeq, error: null },
      ])
      return deliver(clientId, content)
    },
    [deliver],
  )

  const retry = useCallback(
    async (clientId: string) => {
      const failed = pendingRef.current.find((one) => one.clientId === clientId)
      if (!failed || failed.status !== 'failed') return
      setPending((current) =>
        current.map((one) =>
          one.clientId === clientId ? { ...one, status: 'sending', error: null } : one,
        ),
      )
      await deliver(clientId, failed.content)
    },
    [deliver],
  )

  const sendText = useCallback(
    async (text: string) => {
      const trimmed = text.trim()
      if (!trimmed) {
        showToast('请输入内容')
        return false
      }
      void send({ kind: 'text', text: trimmed })
      return true
    },
    [send],
  )

  const sendPicture = useCallback(async () => {
    let paths: string[]
    try {
      paths = await pickPhotos(1)
    } catch (cause) {
      showToast(describeError(cause))
      return
    }
    const localPath = paths[0]
    if (!localPath) return
    let pictureId: string
    try {
      pictureId = (await uploadConversationPicture(localPath)).id
    } catch (cause) {
      showToast(describeError(cause, CONVERSATION_TEXTS.pictureUploadFailed))
      return
    }
    await send({ kind: 'picture', pictureId, localPath })
  }, [send])

  const sendRecord = useCallback(
    async (record: { kind: 'exam' | 'report'; id: string }, title: string) => {
      await send({ kind: 'record', record, title })
    },
    [send],
  )

  const received = useCallback((message: ConsultMessage) => {
    const list = mergeMessages(messagesRef.current, [message])
    messagesRef.current = list
    setMessages(list)
  }, [])

  const pending = useMemo(() => visiblePending(pendingAll, messages), [pendingAll, messages])

  return {
    detail,
    messages,
    pending,
    status,
    error,
    refresh,
    sendText,
    sendPicture,
    sendRecord,
    retry,
    received,
  }
}
