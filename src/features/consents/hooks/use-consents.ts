import { useCallback, useState } from 'react'
import { useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  CONSENT_RULES,
  listConsents,
  withdrawConsent,
  type ConsentGroup,
  type ConsentItem,
} from '@/services/consents'

export type ConsentsState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; groups: readonly ConsentGroup[] }

export interface ConsentsModel {
  state: ConsentsState
  retry: () => void
  /** The key (purpose + target) of the consent being withdrawn, so its button waits. */
  busy: string | null
  withdraw: (item: ConsentItem) => Promise<void>
}

export const consentKey = (item: Pick<ConsentItem, 'purpose' | 'targetId'>) =>
  `${item.purpose}:${item.targetId ?? ''}`

/**
 * 隐私与授权: every consent by purpose. 撤回 says first what stops and what stays (the rule's own
 * words, the server's too), then answers with the item as the server now has it.
 */
export function useConsents(): ConsentsModel {
  const resource = useResource('consents', () => listConsents(), { errorMessage: '加载失败' })
  const [busy, setBusy] = useState<string | null>(null)
  const { replace, reload } = resource

  const withdraw = useCallback(
    async (item: ConsentItem) => {
      const rule = CONSENT_RULES[item.purpose]
      const confirmed = await showModal({
        title: `撤回${rule.label}`,
        content: [item.title, rule.onWithdraw, rule.cannotUndo].filter(Boolean).join('。\n'),
        confirmText: '撤回',
      })
      if (!confirmed) return
      const key = consentKey(item)
      setBusy(key)
      try {
        const answer = await withdrawConsent(item.purpose, item.targetId)
        replace((current) => ({
          groups: current.groups.map((group) => ({
            ...group,
            items: group.items.map((one) => (consentKey(one) === key ? answer.item : one)),
          })),
        }))
        showToast('已撤回', { icon: 'success' })
      } catch (error) {
        showToast(describeError(error, '撤回失败，请稍后重试'))
        void reload()
      } finally {
        setBusy(null)
      }
    },
    [replace, reload],
  )

  const state: ConsentsState =
    resource.status === 'ready'
      ? { status: 'ready', groups: resource.data.groups }
      : resource.status === 'error'
        ? { status: 'error', message: resource.message }
        : { status: 'loading' }
  return { state, retry: () => void reload(), busy, withdraw }
}
