import type { WalletTax } from '@contract/main/wallet'

/*
 * Individual income tax withheld on an expert's 劳务报酬, by the cumulative method of
 * 国家税务总局公告2025年第16号 (in force 2025-10-01), section 一(一):
 *
 *   本期应预扣预缴税额 = (累计收入 − 累计费用 − 累计免税收入 − 累计减除费用 − 累计依法确定的其他扣除)
 *                        × 预扣率 − 速算扣除数 − 累计减免税额 − 累计已预扣预缴税额
 *   累计费用 = 累计收入 × 20%
 *   累计减除费用 = 5,000 元 × 当年截至本月在本平台【连续】取得劳务报酬的月份数
 *
 * The rate table is the seven-grade 3%–45% 预扣率表 (the announcement's 解读 says so: "还可以按照
 * 3%—45%的七级累进预扣率计算税款", replacing the 20%–40% per-payment table of 劳务报酬). We have no
 * 免税收入, other deductions or 减免, so those terms are zero.
 *
 * "Consecutive" matters: the 解读's 例1 (张某: income in June and July, none in August and September,
 * then October to December) restarts everything in October: income, deductions and tax already
 * withheld are counted from October only. So the cumulation here runs over the unbroken run of
 * months, within the calendar year, that ends with this month; a month counts when income was paid
 * out in it (a withdrawal paid), this one included.
 *
 * Integer fen throughout. Rounding (the only two places a fraction of a fen appears): 累计费用 and
 * the tax before the quick deduction are rounded half up to the fen (四舍五入), as the tax
 * authority's own system computes to the fen. A negative result is never refunded here: the tax of
 * a payment is never below zero (the 解读's November: −6 元 → 0); the annual 汇算 settles the rest.
 */

/** One grade of the table: cumulative taxable income up to `upToFen` (inclusive). */
export interface TaxGrade {
  upToFen: number
  ratePercent: number
  quickDeductionFen: number
}

/** 个人所得税预扣率表 (3%–45%, seven grades), in fen. */
export const WITHHOLDING_TABLE: readonly TaxGrade[] = [
  { upToFen: 3_600_000, ratePercent: 3, quickDeductionFen: 0 },
  { upToFen: 14_400_000, ratePercent: 10, quickDeductionFen: 252_000 },
  { upToFen: 30_000_000, ratePercent: 20, quickDeductionFen: 1_692_000 },
  { upToFen: 42_000_000, ratePercent: 25, quickDeductionFen: 3_192_000 },
  { upToFen: 66_000_000, ratePercent: 30, quickDeductionFen: 5_292_000 },
  { upToFen: 96_000_000, ratePercent: 35, quickDeductionFen: 8_592_000 },
  { upToFen: Number.POSITIVE_INFINITY, ratePercent: 45, quickDeductionFen: 18_192_000 },
]

/** 20% of cumulative income is the expense allowance. */
export const EXPENSE_PERCENT = 20
/** 5,000 元 a month of the run. */
export const MONTHLY_DEDUCTION_FEN = 500_000

/** Income paid out earlier (a paid withdrawal): the month (YYYY-MM, China time), gross and tax. */
export interface PaidIncome {
  month: string
  grossFen: number
  taxFen: number
}

/** x × percent / 100, rounded half up to the fen (x ≥ 0). */
export function percentOf(fen: number, percent: number): number {
  return Math.floor((fen * percent + 50) / 100)
}

/** The month before YYYY-MM, or null in January (the run never crosses a year). */
function previousMonth(month: string): string | null {
  const [year, m] = month.split('-').map(Number) as [number, number]
  if (m === 1) return null
  return `${year}-${String(m - 1).padStart(2, '0')}`
}

/** The grade a cumulative taxable income falls in. */
export function gradeOf(taxableFen: number): TaxGrade {
  return WITHHOLDING_TABLE.find((grade) => taxableFen <= grade.upToFen)!
}

/**
 * The tax to withhold from a payment of `amountFen` made in `month` (YYYY-MM, China time), given
 * what was paid out before (any order; months outside this year's unbroken run are ignored).
 */
export function withholdingTax(input: {
  month: string
  amountFen: number
  earlier: readonly PaidIncome[]
}): WalletTax {
  if (!/^\d{4}-(0[1-9]|1[0-2])$/.test(input.month)) throw new Error(`bad month ${input.month}`)
  if (!Number.isSafeInteger(input.amountFen) || input.amountFen < 0)
    throw new Error('amount must be integer fen')
  const paidMonths = new Set(input.earlier.map((paid) => paid.month))
  const run = new Set([input.month])
  for (let m = previousMonth(input.month); m && paidMonths.has(m); m = previousMonth(m)) run.add(m)
  const inRun = input.earlier.filter((paid) => run.has(paid.month))
  const incomeBeforeFen = inRun.reduce((sum, paid) => sum + paid.grossFen, 0)
  const withheldBeforeFen = inRun.reduce((sum, paid) => sum + paid.taxFen, 0)
  const incomeFen = incomeBeforeFen + input.amountFen
  const expensesFen = percentOf(incomeFen, EXPENSE_PERCENT)
  const deductionFen = MONTHLY_DEDUCTION_FEN * run.size
  const taxableFen = Math.max(0, incomeFen - expensesFen - deductionFen)
  const grade = gradeOf(taxableFen)
  const dueFen = Math.max(0, percentOf(taxableFen, grade.ratePercent) - grade.quickDeductionFen)
  return {
    year: Number(input.month.slice(0, 4)),
    incomeBeforeFen,
    incomeFen,
    months: run.size,
    expensesFen,
    deductionFen,
    taxableFen,
    ratePercent: grade.ratePercent,
    quickDeductionFen: grade.quickDeductionFen,
    dueFen,
    withheldBeforeFen,
    taxFen: Math.max(0, dueFen - withheldBeforeFen),
  }
}
