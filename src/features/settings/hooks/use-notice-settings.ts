import { useCallback, useEffect, useRef, useState } from 'react'
import { showToast } from '@/platform/ui'
import {
  describeError,
  getNoticeSettings,
  saveNoticeSettings,
  type NoticeSettings,
} from '@/services/profile'

export type NoticeKey = keyof NoticeSettings

export const NOTICE_ITEMS: readonly { key: NoticeKey; title: string; description: string }[] = [
  { key: 'consultReply', title: '咨询回复', description: '专家回复您的咨询时通知您' },
  { key: 'reportReady', title: '报告出具', description: '医院发布新的报告或影像时通知您' },
  { key: 'systemNotice', title: '系统通知', description: '账号安全、服务变更等重要消息' },
]

export type NoticeState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; settings: NoticeSettings; saving: readonly NoticeKey[] }

export interface NoticeModel {
  state: NoticeState
  retry: () => void
  toggle: (key: NoticeKey, value: boolean) => void
}

/**
 * 通知设置: a switch flips at once and saves in the background; when the server refuses, that one
 * switch goes back and a toast says why, so the screen never shows a setting that is not saved.
 */
export function useNoticeSettings(): NoticeModel {
  const [state, setState] = useState<NoticeState>({ status: 'loading' })
  const [attempt, setAttempt] = useState(0)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  useEffect(() => {
    setState({ status: 'loading' })
    getNoticeSettings().then(
      (settings) => alive.current && setState({ status: 'ready', settings, saving: [] }),
      (error: unknown) =>
        alive.current && setState({ status: 'error', message: describeError(error, '加载失败') }),
    )
  }, [attempt])

  // The current state, read synchronously: a tap must decide at once whether it starts a save.
  const latest = useRef(state)
  latest.current = state

  const toggle = useCallback((key: NoticeKey, value: boolean) => {
    const current = latest.current
    if (current.status !== 'ready' || current.saving.includes(key)) return
    const next: NoticeState = {
      status: 'ready',
      settings: { ...current.settings, [key]: value },
      saving: [...current.saving, key],
    }
    latest.current = next
    setState(next)
    const settle = (apply: (settings: NoticeSettings) => NoticeSettings) =>
      setState((current) =>
        current.status === 'ready'
          ? {
              status: 'ready',
              settings: apply(current.settings),
              saving: current.saving.filter((item) => item !== key),
            }
          : current,
      )
    saveNoticeSettings({ [key]: value }).then(
      // Only this switch takes the server's word: another one may be on its way.
      (saved) => alive.current && settle((settings) => ({ ...settings, [key]: saved[key] })),
      (error: unknown) => {
        if (!alive.current) return
        settle((settings) => ({ ...settings, [key]: !value }))
        showToast(`保存失败：${describeError(error)}`)
      },
    )
  }, [])

  return { state, retry: () => setAttempt((n) => n + 1), toggle }
}
