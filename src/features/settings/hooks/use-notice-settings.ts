import { useCallback, useEffect, useRef, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
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
  const settings = useResource('notice-settings', () => getNoticeSettings(), {
    errorMessage: '加载失败',
  })
  // Which switches are saving is this screen's own: the settings are the one thing loaded.
  const [saving, setSaving] = useState<readonly NoticeKey[]>([])
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  // The current state, read synchronously: a tap must decide at once whether it starts a save.
  const latest = useRef({ ready: settings.status === 'ready', saving })
  latest.current = { ready: settings.status === 'ready', saving }

  const { replace } = settings
  const toggle = useCallback(
    (key: NoticeKey, value: boolean) => {
      const current = latest.current
      if (!current.ready || current.saving.includes(key)) return
      latest.current = { ready: true, saving: [...current.saving, key] }
      replace((settings) => ({ ...settings, [key]: value }))
      setSaving((list) => [...list, key])
      const settle = (apply: (settings: NoticeSettings) => NoticeSettings) => {
        replace(apply)
        setSaving((list) => list.filter((item) => item !== key))
      }
      saveNoticeSettings({ [key]: value }).then(
        // Only this switch takes the server's word: another one may be on its way.
        (saved) => alive.current && settle((settings) => ({ ...settings, [key]: saved[key] })),
        (error: unknown) => {
          if (!alive.current) return
          settle((settings) => ({ ...settings, [key]: !value }))
          showToast(`保存失败：${describeError(error)}`)
        },
      )
    },
    [replace],
  )

  const state: NoticeState =
    settings.status === 'ready'
      ? { status: 'ready', settings: settings.data, saving }
      : settings.status === 'error'
        ? { status: 'error', message: settings.message }
        : { status: 'loading' }
  return { state, retry: () => void settings.reload(), toggle }
}
