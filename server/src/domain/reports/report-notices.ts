import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExamsTable, ReportsTable } from '../../db/schema'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { notify } from '../messages'
import { boundIdentity, type PatientIdentity, visibleTo } from '../records'
import { examTitle } from '../records'

/*
 * 报告通知 (issue 18): the account whose records a hospital report belongs to is told when it arrives
 * and when it changes, in the transaction that stores it (a push that rolls back tells nobody).
 *
 * - Whose: the accounts access.ts lets see the exam as their own (a bound ID card with the pushed
 *   number and name, or a claim), less those who removed it from their list; a child's message
 *   reaches their guardians (messages.ts). Nobody else, so an unmatched report tells no one.
 * - When: once per stored version. A retry of the current version stores nothing (reports.ts answers
 *   `unchanged`), so it tells nothing again; an amendment is a new version and says 报告已更正.
 * - What: the hospital and the exam's type, never the findings or the conclusion, and a link to the
 *   report by route name (reportDetail), which checks access again when opened.
 * - A later match (binding the ID card) tells once how many reports it found (announceFoundReports).
 * - Governed by the 报告出具 switch of 通知设置 (messages.ts notify).
 */

/** Accounts that see this hospital exam as their own now (access.ts visibleTo), not hidden by them. */
export async function examPeople(db: DB, cipher: FieldCipher, exam: ExamsTable): Promise<string[]> {
  if (exam.source !== 'hospital') return []
  const [cards, claims] = await Promise.all([
    exam.patient_key === null
      ? []
      : db
          .selectFrom('id_cards')
          .innerJoin('users', 'users.id', 'id_cards.user_id')
          .select('id_cards.user_id')
          .where('id_cards.number_hash', '=', exam.patient_key)
          .where('users.deleted_at', 'is', null)
          .execute(),
    db
      .selectFrom('exam_claims')
      .innerJoin('users', 'users.id', 'exam_claims.user_id')
      .select('exam_claims.user_id')
      .where('exam_claims.exam_id', '=', exam.id)
      .where('users.deleted_at', 'is', null)
      .execute(),
  ])
  const people: string[] = []
  for (const userId of new Set([...cards, ...claims].map((row) => row.user_id))) {
    // The card's number is only half the match: visibleTo checks the name too, as every read does.
    const seen = await db
      .selectFrom('exams')
      .leftJoin('exam_user_states as s', (join) =>
        join.onRef('s.exam_id', '=', 'exams.id').on('s.user_id', '=', userId),
      )
      .select('s.hidden_at')
      .where('exams.id', '=', exam.id)
      .where(visibleTo({ kind: 'user', userId }, await boundIdentity(db, cipher, userId)))
      .executeTakeFirst()
    // Removed from their list (删除): they asked not to see it again.
    if (seen && !seen.hidden_at) people.push(userId)
  }
  return people
}

async function hospitalName(db: DB, exam: ExamsTable): Promise<string> {
  const hospital = exam.hospital_id
    ? await db
        .selectFrom('hospitals')
        .select('name')
        .where('id', '=', exam.hospital_id)
        .executeTakeFirst()
    : undefined
  return hospital?.name ?? exam.hospital_text?.trim() ?? '医院'
}

const WITHDRAWN = new Set(['cancelled', 'entered-in-error'])
const CORRECTIONS = new Set(['amended', 'corrected'])

/** What happened to the report, as this person sees it; null: nothing worth telling. */
function reportEvent(
  seenBefore: { status: string } | null,
  status: string,
): { title: string; says: string } | null {
  if (seenBefore === null) {
    if (WITHDRAWN.has(status)) return null
    if (status === 'preliminary') {
      return { title: '初步报告已出具', says: '初步报告已出具，正式报告发布后会再通知您' }
    }
    return { title: '新报告已出具', says: '检查报告已出具，点击查看' }
  }
  if (WITHDRAWN.has(status)) {
    return { title: '报告已撤销', says: '检查报告已被医院撤销，如有疑问请咨询医院' }
  }
  if (CORRECTIONS.has(status)) {
    return { title: '报告已更正', says: '检查报告已由医院更正，请查看最新内容' }
  }
  if (seenBefore.status === 'preliminary' && status === 'final') {
    return { title: '正式报告已出具', says: '正式报告已出具，点击查看' }
  }
  return { title: '报告已更新', says: '检查报告内容已更新，点击查看' }
}

export interface ReportChange {
  /** The report as just stored (its new version). */
  report: ReportsTable
  exam: ExamsTable
  /** The report before this version, and who saw it then; null for a new report. */
  before: { status: string; people: readonly string[] } | null
}

/**
 * Inside the transaction that stored a new version: one 报告通知 per person it belongs to. Answers
 * the subscribe messages to send once the transaction has committed.
 */
export async function announceReport(
  trx: DB,
  cipher: FieldCipher,
  change: ReportChange,
  now: Date,
): Promise<SubscribeNotice[]> {
  const people = await examPeople(trx, cipher, change.exam)
  if (people.length === 0) return []
  const hospital = await hospitalName(trx, change.exam)
  const exam = examTitle(change.exam)
  const notices: SubscribeNotice[] = []
  for (const userId of people) {
    // Someone who could not see the report before (a new report, or one that now names them) is
    // told about it as new, whatever version it has reached.
    const seenBefore = change.before && change.before.people.includes(userId) ? change.before : null
    const event = reportEvent(seenBefore, change.report.status)
    if (!event) continue
    const reached = await notify(
      trx,
      {
        userId,
        kind: 'report',
        title: event.title,
        body: `${hospital}的「${exam}」${event.says}。`,
        link: { route: 'reportDetail', params: { id: change.report.id } },
      },
      'reportReady',
      now,
    )
    for (const recipient of reached) {
      notices.push({
        userId: recipient,
        template: 'report-ready',
        data: { hospital, exam, event: event.title, time: now.toISOString() },
      })
    }
  }
  return notices
}

/**
 * Inside the transaction that binds an ID card: the hospital reports the card brings into 我的报告
 * (visible with it, not without it), told once in one message, not one per report.
 */
export async function announceFoundReports(
  trx: DB,
  userId: string,
  identity: PatientIdentity,
  now: Date,
): Promise<void> {
  const own = { kind: 'user' as const, userId }
  const found = await trx
    .selectFrom('reports')
    .innerJoin('exams', 'exams.id', 'reports.exam_id')
    .leftJoin('hospitals', 'hospitals.id', 'exams.hospital_id')
    .select(['reports.id', 'hospitals.name', 'exams.hospital_text'])
    .where(visibleTo(own, identity))
    .where((eb) => eb.not(visibleTo(own, undefined)(eb)))
    .where('reports.status', 'not in', [...WITHDRAWN])
    .execute()
  if (found.length === 0) return
  const hospitals = [
    ...new Set(found.map((row) => row.name ?? row.hospital_text?.trim() ?? '医院')),
  ]
  const where =
    hospitals.length > 3 ? `${hospitals.slice(0, 3).join('、')}等医院` : hospitals.join('、')
  await notify(
    trx,
    {
      userId,
      kind: 'report',
      title: `您有 ${found.length} 份新报告`,
      body: `绑定身份证后，已找到您在${where}的 ${found.length} 份检查报告，点击查看。`,
      link: { route: 'myReports', params: {} },
    },
    'reportReady',
    now,
  )
}
