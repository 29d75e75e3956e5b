import { WALLET_MESSAGES } from '@/services/wallet'
import { overview } from '@/services/__tests__/wallet-fixtures'
import { checkWithdrawAmount, chinaMonth, withdrawBlocked } from '../amount'

describe('the amount rules (before any request)', () => {
  const data = overview({ availableFen: 123456 })
  const problem = (typed: string) => {
    const check = checkWithdrawAmount(typed, data)
    return check.kind === 'problem' ? check.message : check.kind
  }

  it('takes up to two decimals as exact fen', () => {
    expect(checkWithdrawAmount('100.5', data)).toEqual({ kind: 'ok', fen: 10050, amount: '100.5' })
    expect(
      checkWithdrawAmount(' 0.07 ', overview({ limits: { ...data.limits, minFen: 1 } })),
    ).toEqual({ kind: 'problem', message: WALLET_MESSAGES.amountTooSmall })
    expect(checkWithdrawAmount('1234.56', data)).toMatchObject({ kind: 'ok', fen: 123456 })
    expect(problem('')).toBe('empty')
  })

  it('refuses what the spec’s amount refuses, in the contract’s words, never rounding', () => {
    for (const typed of ['1.234', '-1', '1,000', '01', '1.', '.5', '1e3', '¥5', '1 000']) {
      expect(problem(typed)).toBe(WALLET_MESSAGES.amountFormat)
    }
  })

  it('at least ¥1, at most the balance and the limits', () => {
    expect(problem('0.5')).toBe(WALLET_MESSAGES.amountTooSmall)
    expect(problem('0.99')).toBe(WALLET_MESSAGES.amountTooSmall)
    expect(problem('1')).toBe('ok')
    expect(problem('1234.57')).toBe(WALLET_MESSAGES.amountOverBalance)
    const limited = overview({
      availableFen: 5_000_000,
      limits: { ...data.limits, perTransferFen: 2_000_000, leftTodayFen: 500_000 },
    })
    expect(checkWithdrawAmount('20000.01', limited)).toMatchObject({
      message: WALLET_MESSAGES.overPerTransfer,
    })
    expect(checkWithdrawAmount('5000.01', limited)).toMatchObject({
      message: WALLET_MESSAGES.overPerDay,
    })
  })

  it('提现 is closed when unconfigured or under ¥1', () => {
    expect(withdrawBlocked(data, 'x')).toBeNull()
    expect(
      withdrawBlocked(
        overview({ payout: { provider: 'unconfigured', configured: false, label: '' } }),
        'x',
      ),
    ).toBe(WALLET_MESSAGES.notConfigured)
    expect(withdrawBlocked(overview({ availableFen: 99 }), '不足')).toBe('不足')
  })

  it('counts months in China time', () => {
    // 2026-10-31 16:30 UTC is already 1 November in Beijing.
    expect(chinaMonth(Date.UTC(2026, 9, 31, 16, 30))).toBe('2026-11')
    expect(chinaMonth(Date.UTC(2026, 9, 31, 15, 59))).toBe('2026-10')
  })
})
