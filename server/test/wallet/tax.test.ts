// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  gradeOf,
  MONTHLY_DEDUCTION_FEN,
  type PaidIncome,
  percentOf,
  withholdingTax,
} from '../../src/domain/wallet/tax'

/*
 * The cumulative withholding of 税务总局公告2025年第16号, to the fen.
 *
 * 例1 is the announcement's own worked example, from the tax bureau's 解读 of the announcement
 * (关于《国家税务总局关于互联网平台企业为平台内从业人员办理扣缴申报、代办申报若干事项的公告》的解读,
 * question 三; reprinted e.g. at m.c4edm.cn/Article-detail-id-3830864.html and fusiontax.cn): 张某 earns
 * 7,000 元 in June and 7,500 元 in July from platform A, nothing in August and September, then 7,200,
 * 6,000 and 8,000 元 in October to December. Withheld: 18, 30, (restart) 22.8, 0 (−6 → 0), 36 元;
 * 106.8 元 in all. The other cases are computed by hand from the same formula and the 3%–45%
 * 预扣率表 (个人所得税预扣率表一), each step written beside it.
 */

/** Runs a year of monthly payments through the rule, each payment seeing the ones before it. */
function year(payments: [month: string, yuan: number][]): number[] {
  const earlier: PaidIncome[] = []
  return payments.map(([month, yuan]) => {
    const tax = withholdingTax({ month, amountFen: yuan * 100, earlier })
    earlier.push({ month, grossFen: yuan * 100, taxFen: tax.taxFen })
    return tax.taxFen
  })
}

test('例1 of the 解读: 18, 30, then a restart after the gap: 22.8, 0, 36 元 (106.8 元 in all)', () => {
  const taxes = year([
    ['2025-06', 7000],
    ['2025-07', 7500],
    ['2025-10', 7200],
    ['2025-11', 6000],
    ['2025-12', 8000],
  ])
  assert.deepEqual(taxes, [1800, 3000, 2280, 0, 3600])
  assert.equal(
    taxes.reduce((a, b) => a + b, 0),
    10680,
  )
})

test('例1, step by step: what each figure of the computation is', () => {
  const earlier: PaidIncome[] = [
    { month: '2025-10', grossFen: 720_000, taxFen: 2280 },
    { month: '2025-11', grossFen: 600_000, taxFen: 0 },
    // June and July are before the gap: not in December's cumulation.
    { month: '2025-06', grossFen: 700_000, taxFen: 1800 },
    { month: '2025-07', grossFen: 750_000, taxFen: 3000 },
  ]
  const december = withholdingTax({ month: '2025-12', amountFen: 800_000, earlier })
  assert.deepEqual(december, {
    year: 2025,
    incomeBeforeFen: 1_320_000,
    incomeFen: 2_120_000,
    months: 3,
    expensesFen: 424_000,
    deductionFen: 1_500_000,
    taxableFen: 196_000,
    ratePercent: 3,
    quickDeductionFen: 0,
    dueFen: 5880,
    withheldBeforeFen: 2280,
    taxFen: 3600,
  })
  // November: [(7200+6000)×80% − 10000]×3% − 22.8 = −6 → nothing withheld, nothing refunded.
  const november = withholdingTax({
    month: '2025-11',
    amountFen: 600_000,
    earlier: earlier.slice(0, 1),
  })
  assert.equal(november.dueFen, 1680)
  assert.equal(november.taxFen, 0)
})

test('below 6,250 元 a month nothing is withheld (6,250 × 80% = 5,000)', () => {
  assert.deepEqual(year([['2026-03', 6250]]), [0])
  // 6,300 元: (6300×0.8 − 5000) × 3% = 40 × 3% = 1.20 元.
  assert.deepEqual(year([['2026-03', 6300]]), [120])
})

test('several payments in one month: one month of deduction, cumulated within the month', () => {
  // 3,000 + 3,000 + 3,000 元 in May: the third brings 9,000 × 80% − 5,000 = 2,200 × 3% = 66 元;
  // the first two are under 5,000 after expenses (2,400, 4,800): 0.
  assert.deepEqual(
    year([
      ['2026-05', 3000],
      ['2026-05', 3000],
      ['2026-05', 3000],
    ]),
    [0, 0, 6600],
  )
})

test('crossing into the 10% grade, with the quick deduction of 2,520 元', () => {
  // One payment of 60,000 元 in January: 60,000 − 12,000 − 5,000 = 43,000; 43,000 × 10% − 2,520 = 1,780 元.
  const tax = withholdingTax({ month: '2026-01', amountFen: 6_000_000, earlier: [] })
  assert.equal(tax.taxableFen, 4_300_000)
  assert.equal(tax.ratePercent, 10)
  assert.equal(tax.quickDeductionFen, 252_000)
  assert.equal(tax.taxFen, 178_000)
  // February, 60,000 元 again: 120,000 − 24,000 − 10,000 = 86,000; 86,000 × 10% − 2,520 − 1,780 = 4,300 元.
  const second = withholdingTax({
    month: '2026-02',
    amountFen: 6_000_000,
    earlier: [{ month: '2026-01', grossFen: 6_000_000, taxFen: 178_000 }],
  })
  assert.equal(second.taxableFen, 8_600_000)
  assert.equal(second.taxFen, 430_000)
})

test('a new year starts afresh, even after an unbroken December', () => {
  const january = withholdingTax({
    month: '2027-01',
    amountFen: 1_000_000,
    earlier: [{ month: '2026-12', grossFen: 1_000_000, taxFen: 9000 }],
  })
  // 10,000 × 80% − 5,000 = 3,000 × 3% = 90 元, nothing carried from December.
  assert.equal(january.months, 1)
  assert.equal(january.withheldBeforeFen, 0)
  assert.equal(january.taxFen, 9000)
})

test('rounding: half a fen and up rounds up, below it down; the table’s grade edges are inclusive', () => {
  assert.equal(percentOf(1, 20), 0) // 0.2 fen
  assert.equal(percentOf(3, 20), 1) // 0.6 fen
  assert.equal(percentOf(50, 3), 2) // 1.5 fen → 2
  assert.equal(percentOf(49, 3), 1) // 1.47 fen → 1
  assert.equal(gradeOf(3_600_000).ratePercent, 3)
  assert.equal(gradeOf(3_600_001).ratePercent, 10)
  assert.equal(gradeOf(96_000_001).ratePercent, 45)
  // 1 fen of income over the threshold: taxable 0.8 fen → expenses rounded, never negative tax.
  const tiny = withholdingTax({ month: '2026-04', amountFen: 625_001, earlier: [] })
  assert.equal(tiny.expensesFen, 125_000)
  assert.equal(tiny.taxableFen, 1)
  assert.equal(tiny.taxFen, 0)
  assert.equal(MONTHLY_DEDUCTION_FEN, 500_000)
})

test('the tax of a payment is never more than 36% of it (45% × 80%), so the net is never negative', () => {
  let earlier: PaidIncome[] = []
  for (const [month, yuan] of [
    ['2026-01', 900_000],
    ['2026-02', 100],
    ['2026-02', 1_500_000],
    ['2026-03', 1],
  ] as const) {
    const tax = withholdingTax({ month, amountFen: yuan * 100, earlier })
    assert.ok(tax.taxFen <= Math.ceil(yuan * 100 * 0.36) + 1, `${month} ${yuan}`)
    earlier = [...earlier, { month, grossFen: yuan * 100, taxFen: tax.taxFen }]
  }
})
