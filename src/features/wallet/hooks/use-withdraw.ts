import { useRef, useState } from 'react'
import type { ReauthProof } from '@/components/reauth-sheet'
import { type OptionalResource, type Resource, useResource } from '@/hooks/use-resource'
import { describeError } from '@/services/api'
import { NetworkError } from '@/services/http'
import {
  createWithdrawal,
  getWallet,
  quoteWithdrawal,
  sendWithdrawCode,
  type WalletOverview,
  type Withdrawal,
  type WithdrawalQuote,
  yuanOf,
} from '@/services/wallet'
import { guid } from '@/utils/guid'
import { type AmountCheck, checkWithdrawAmount, withdrawBlocked } from '../amount'
import { WALLET_TEXTS as T } from '../texts'

/** How long the amount must stay as typed before the quote is asked (one request, not one a key). */
export const QUOTE_DELAY_MS = 500

/** The id of one withdrawal attempt, kept across its retries (the server answers the same one). */
export const newClientId = () => `w${guid(23, false)}`

export interface WithdrawModel {
  overview: Resource<WalletOverview>
  /** Why 提现 is closed (提现未配置, balance under ¥1), or null. */
  blocked: string | null
  amount: string
  setAmount: (value: string) => void
  /** 全部提现: the whole available balance. */
  fillAll: () => void
  check: AmountCheck
  /** The server's quote of a valid amount: tax, net, 审核, or its refusal. */
  quote: OptionalResource<WithdrawalQuote>
  /** The quote says it can go: 下一步 opens the password-or-code sheet. */
  canContinue: boolean
  confirming: boolean
  openConfirm: () => void
  closeConfirm: () => void
  busy: boolean
  error: string | null
  submit: (proof: ReauthProof) => Promise<boolean>
  sendCode: typeof sendWithdrawCode
  /** The withdrawal made, shown with its state from then on. */
  result: Withdrawal | null
  setResult: (next: Withdrawal) => void
}

/**
 * 提现: the amount (checked as typed, in the contract's words, before any request), the quote
 * (debounced), then the login password or an SMS code, and one withdrawal per attempt: the clientId
 * is made once and kept across retries, so a retry after a lost answer gets the same withdrawal,
 * never a second one. A new amount is a new attempt.
 */
export function useWithdraw(): WithdrawModel {
  const overview = useResource('wallet', () => getWallet())
  const [amount, setAmountText] = useState('')
  const [confirming, setConfirming] = useState(false)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [result, setResult] = useState<Withdrawal | null>(null)
  const clientId = useRef<string | null>(null)

  const data = overview.status === 'ready' ? overview.data : null
  const check: AmountCheck = data ? checkWithdrawAmount(amount, data) : { kind: 'empty' }
  const checked = check.kind === 'ok' ? check : null
  const quote = useResource(
    checked ? `quote:${checked.fen}` : null,
    () => quoteWithdrawal(checked!.amount),
    { delayMs: QUOTE_DELAY_MS },
  )
  const canContinue =
    checked !== null && quote.status === 'ready' && quote.data.refused === null && !busy

  const setAmount = (value: string) => {
    setAmountText(value)
    setError(null)
    // What would be withdrawn changed: a new attempt, not a retry of the last one.
    clientId.current = null
  }

  const submit = async (proof: ReauthProof) => {
    if (!checked || busy) return false
    clientId.current ??= newClientId()
    setBusy(true)
    setError(null)
    try {
      const made = await createWithdrawal({
        amount: checked.amount,
        clientId: clientId.current,
        ...proof,
      })
      clientId.current = null
      setConfirming(false)
      setResult(made)
      void overview.reload()
      return true
    } catch (cause) {
      setError(
        cause instanceof NetworkError ? T.networkRetry : describeError(cause, '提现失败，请重试'),
      )
      return false
    } finally {
      setBusy(false)
    }
  }

  return {
    overview,
    blocked: data ? withdrawBlocked(data, T.belowMinimum) : null,
    amount,
    setAmount,
    fillAll: () => {
      if (data) setAmount(yuanOf(data.availableFen))
    },
    check,
    quote,
    canContinue,
    confirming,
    openConfirm: () => {
      if (!canContinue) return
      setError(null)
      setConfirming(true)
    },
    closeConfirm: () => setConfirming(false),
    busy,
    error,
    submit,
    sendCode: sendWithdrawCode,
    result,
    setResult,
  }
}
