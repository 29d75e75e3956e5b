import { useEffect, useRef, useState } from 'react'
import { requestMerchantTransfer } from '@/platform/merchant-transfer'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  cancelWithdrawal,
  confirmWithdrawal,
  followWithdrawal,
  syncWithdrawal,
  type Withdrawal,
} from '@/services/wallet'
import { WALLET_TEXTS as T } from '../texts'

export type WithdrawalAction = 'confirm' | 'cancel' | 'refresh'

export interface WithdrawalActions {
  /** The action under way, one at a time. */
  busy: WithdrawalAction | null
  /** What the person must know about 确认收款 (open the mini-program, update WeChat), or null. */
  notice: string | null
  confirm: () => Promise<void>
  cancel: () => Promise<void>
  refresh: () => Promise<void>
}

/**
 * 确认收款, 取消 and 刷新状态 of one withdrawal, wherever it shows (提现's result, 提现详情).
 *
 * 确认收款 asks the server for the transfer's parameters (confirmWithdrawal). The demo provider
 * confirms there and then; WeChat Pay's 商家转账 needs the mini-program to show WeChat's own receipt
 * page (wx.requestMerchantTransfer), after which the server asks the provider (syncWithdrawal),
 * since what the page says is not proof. H5 cannot confirm a WeChat transfer: it says so.
 */
export function useWithdrawalActions(
  withdrawal: Withdrawal | null,
  onChange: (next: Withdrawal) => void,
): WithdrawalActions {
  const [busy, setBusy] = useState<WithdrawalAction | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const running = useRef(false)

  const run = async (action: WithdrawalAction, work: (id: string) => Promise<void>) => {
    if (!withdrawal || running.current) return
    running.current = true
    setBusy(action)
    try {
      await work(withdrawal.id)
    } catch (error) {
      showToast(describeError(error))
    } finally {
      running.current = false
      setBusy(null)
    }
  }

  const confirm = () =>
    run('confirm', async (id) => {
      setNotice(null)
      const start = await confirmWithdrawal(id)
      onChange(start.withdrawal)
      if (start.kind === 'demo') return
      if (!start.mchId || !start.appId || !start.packageInfo) {
        setNotice(T.confirmFailed)
        return
      }
      const outcome = await requestMerchantTransfer({
        mchId: start.mchId,
        appId: start.appId,
        packageInfo: start.packageInfo,
      })
      if (outcome === 'unavailable') return setNotice(T.openInWeapp)
      if (outcome === 'outdated') return setNotice(T.updateWechat)
      if (outcome === 'cancelled') setNotice(T.confirmCancelled)
      if (outcome === 'failed') setNotice(T.confirmFailed)
      // Whatever WeChat's page said, the provider's state is the truth.
      onChange(await syncWithdrawal(id))
    })

  const cancel = () =>
    run('cancel', async (id) => {
      const sure = await showModal({
        title: T.cancel,
        content: T.cancelConfirm,
        confirmText: T.cancel,
        cancelText: '不取消',
      })
      if (!sure) return
      onChange(await cancelWithdrawal(id))
      showToast(T.cancelled)
    })

  const refresh = () =>
    run('refresh', async (id) => {
      onChange(await syncWithdrawal(id))
      showToast(T.refreshed)
    })

  return { busy, notice, confirm, cancel, refresh }
}

/** How often, and how many times, a withdrawal being paid is read again while it shows. */
export const FOLLOW_EVERY_MS = 3000
export const FOLLOW_TIMES = 10

/**
 * 打款中 usually ends within seconds (the provider answers, or asks the person to confirm): while
 * the screen shows one, the provider is asked again a few times, quietly (syncWithdrawal), so the
 * state moves on by itself to 待确认收款, 已到账 or 失败.
 */
export function useFollowPaying(
  withdrawal: Withdrawal | null,
  onChange: (next: Withdrawal) => void,
): void {
  const latest = useRef(onChange)
  latest.current = onChange
  const id = withdrawal?.id ?? null
  const paying = withdrawal?.state === 'paying'
  const reads = useRef(0)
  useEffect(() => {
    reads.current = 0
  }, [id])
  useEffect(() => {
    if (!id || !paying || reads.current >= FOLLOW_TIMES) return
    let alive = true
    const timer = setTimeout(() => {
      reads.current += 1
      followWithdrawal(id).then(
        (next) => {
          if (alive) latest.current(next)
        },
        () => undefined,
      )
    }, FOLLOW_EVERY_MS)
    return () => {
      alive = false
      clearTimeout(timer)
    }
  }, [id, paying, withdrawal])
}
