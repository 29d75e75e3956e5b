import { sql } from 'kysely'
import { INCOME_REPORT_QUARTER_RE } from '@contract/main/wallet'
import { badRequest } from '../../http/errors'
import { recordOperatorAction } from '../operator'
import type { WalletContext } from './context'

/*
 * The quarterly income report per expert, for the platform's report to the tax bureau
 * (互联网平台企业涉税信息报送规定, 国务院令第810号, art. 4: within the month after each quarter, the
 * identity and the income of the people who earned through the platform, in the categories the tax
 * bureau sets). One CSV line per expert with income or a payout in the quarter (China time).
 *
 * Identity: the certified real name and the FULL ID card number, from the expert's ID card, or,
 * once account deletion has removed it, from the payee kept with the expert's most recent
 * withdrawal (migration 0027; the 执业机构 likewise, from the expert profile or the withdrawal).
 * The report exists for one purpose, to be filed with the tax bureau, which identifies people by
 * their number; a masked number would make it useless. So it is protected where it is made instead: operators only, every
 * download in the operators' audit log (who, which quarter, how many lines), `no-store`, and nothing
 * of it written to the server's logs.
 *
 * Figures, in 元 with two decimals from integer fen:
 *   收入总额  the expert's share of consultations completed in the quarter (ledger: completion)
 *   退款扣回  refunds taken back from that income in the quarter (ledger: refund-hold on the expert)
 *   收入净额  收入总额 − 退款扣回
 *   支付金额  withdrawals paid out in the quarter (gross: the 劳务报酬 paid)
 *   代扣个税  tax withheld from them (税务总局公告2025年第16号)
 *   实发金额  what reached the expert's 零钱 (支付金额 − 代扣个税)
 */

export const INCOME_REPORT_HEADER = [
  '序号',
  '姓名',
  '证件类型',
  '证件号码',
  '国家或地区',
  '执业机构',
  '收入总额（元）',
  '退款扣回（元）',
  '收入净额（元）',
  '支付金额（元）',
  '代扣个税（元）',
  '实发金额（元）',
] as const

/** [from, to) in UTC of a quarter (2026Q3) in China time. */
export function quarterRange(quarter: string): { from: string; to: string } {
  if (!INCOME_REPORT_QUARTER_RE.test(quarter)) throw badRequest('季度格式不正确，例如 2026Q3')
  const year = Number(quarter.slice(0, 4))
  const q = Number(quarter.slice(5))
  const start = Date.UTC(year, (q - 1) * 3, 1) - 8 * 3600_000
  const end = Date.UTC(year, q * 3, 1) - 8 * 3600_000
  return { from: new Date(start).toISOString(), to: new Date(end).toISOString() }
}

const money = (fen: number) =>
  `${fen < 0 ? '-' : ''}${Math.floor(Math.abs(fen) / 100)}.${String(Math.abs(fen) % 100).padStart(2, '0')}`

/** One CSV field: quoted when needed; a leading = + - @ is neutralised (spreadsheet formulas). */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export async function incomeReportCsv(
  ctx: WalletContext,
  operatorId: string,
  quarter: string,
): Promise<{ filename: string; csv: string; lines: number }> {
  const range = quarterRange(quarter)
  const [ledger, paid] = await Promise.all([
    ctx.db
      .selectFrom('ledger_entries as e')
      .innerJoin('ledger_transfers as t', 't.id', 'e.transfer_id')
      .innerJoin('ledger_accounts as a', 'a.id', 'e.account_id')
      .select(['a.owner_id', 't.kind', sql<number | string>`sum(e.amount)`.as('total')])
      .where('a.kind', 'in', ['expert-pending', 'expert-available'])
      .where('t.kind', 'in', ['completion', 'refund-hold'])
      .where('e.created_at', '>=', range.from)
      .where('e.created_at', '<', range.to)
      .groupBy(['a.owner_id', 't.kind'])
      .execute(),
    ctx.db
      .selectFrom('withdrawals')
      .select([
        'expert_user_id',
        sql<number | string>`sum(gross_fen)`.as('gross'),
        sql<number | string>`sum(tax_fen)`.as('tax'),
        sql<number | string>`sum(net_fen)`.as('net'),
      ])
      .where('state', '=', 'paid')
      .where('paid_at', '>=', range.from)
      .where('paid_at', '<', range.to)
      .groupBy('expert_user_id')
      .execute(),
  ])
  const figures = new Map<
    string,
    { income: number; refunds: number; gross: number; tax: number; net: number }
  >()
  const of = (id: string) => {
    let found = figures.get(id)
    if (!found) {
      found = { income: 0, refunds: 0, gross: 0, tax: 0, net: 0 }
      figures.set(id, found)
    }
    return found
  }
  for (const row of ledger) {
    if (!row.owner_id) continue
    if (row.kind === 'completion') of(row.owner_id).income += Number(row.total)
    else of(row.owner_id).refunds += -Number(row.total)
  }
  for (const row of paid) {
    const f = of(row.expert_user_id)
    f.gross += Number(row.gross)
    f.tax += Number(row.tax)
    f.net += Number(row.net)
  }
  const ids = [...figures.keys()]
  const people =
    ids.length > 0
      ? await ctx.db
          .selectFrom('users as u')
          .leftJoin('id_cards as c', 'c.user_id', 'u.id')
          .leftJoin('experts as x', 'x.user_id', 'u.id')
          .leftJoin('hospitals as h', 'h.id', 'x.hospital_id')
          .select([
            'u.id',
            'u.nickname',
            'x.name as expert_name',
            'c.holder_encrypted',
            'c.number_encrypted',
            'h.name as hospital_name',
          ])
          .where('u.id', 'in', ids)
          .execute()
      : []
  // Account deletion removes the ID card and the expert profile; the payee kept with the expert's
  // most recent withdrawal (migration 0027) stands in for what is gone.
  const gone = people
    .filter((person) => !person.holder_encrypted || !person.hospital_name)
    .map((person) => person.id)
  const kept = new Map<
    string,
    {
      payee_name_encrypted: string | null
      payee_id_number_encrypted: string | null
      payee_hospital_name: string | null
    }
  >()
  if (gone.length > 0) {
    const snapshots = await ctx.db
      .selectFrom('withdrawals')
      .select([
        'expert_user_id',
        'payee_name_encrypted',
        'payee_id_number_encrypted',
        'payee_hospital_name',
      ])
      .where('expert_user_id', 'in', gone)
      .where((eb) =>
        eb.or([
          eb('payee_name_encrypted', 'is not', null),
          eb('payee_hospital_name', 'is not', null),
        ]),
      )
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .execute()
    for (const row of snapshots)
      if (!kept.has(row.expert_user_id)) kept.set(row.expert_user_id, row)
  }
  const byId = new Map(
    people.map((person) => {
      const snapshot = kept.get(person.id)
      const live = person.holder_encrypted !== null
      return [
        person.id,
        {
          ...person,
          holder_encrypted: live
            ? person.holder_encrypted
            : (snapshot?.payee_name_encrypted ?? null),
          number_encrypted: live
            ? person.number_encrypted
            : (snapshot?.payee_id_number_encrypted ?? null),
          hospital_name: person.hospital_name ?? snapshot?.payee_hospital_name ?? null,
        },
      ]
    }),
  )
  const decrypt = (value: string | null | undefined) => {
    if (!value) return ''
    try {
      return ctx.cipher.decrypt(value)
    } catch {
      return ''
    }
  }
  const rows = ids
    .map((id) => {
      const person = byId.get(id)
      const name =
        decrypt(person?.holder_encrypted) || person?.expert_name || person?.nickname || ''
      return { id, name, person, f: figures.get(id)! }
    })
    .sort((a, b) => a.name.localeCompare(b.name, 'zh-CN') || a.id.localeCompare(b.id))
  const lines = rows.map(({ name, person, f }, index) =>
    [
      String(index + 1),
      name,
      person?.number_encrypted ? '居民身份证' : '',
      decrypt(person?.number_encrypted),
      '中国',
      person?.hospital_name ?? '',
      money(f.income),
      money(f.refunds),
      money(f.income - f.refunds),
      money(f.gross),
      money(f.tax),
      money(f.net),
    ]
      .map(csvField)
      .join(','),
  )
  await recordOperatorAction(
    ctx.db,
    {
      operatorId,
      action: 'income-report-export',
      targetId: quarter,
      detail: `${lines.length} 位专家`,
    },
    ctx.now(),
  )
  // A byte-order mark, so spreadsheet programs read the Chinese as UTF-8.
  const csv = `\ufeff${[INCOME_REPORT_HEADER.join(','), ...lines].join('\r\n')}\r\n`
  return { filename: `income-report-${quarter}.csv`, csv, lines: lines.length }
}
