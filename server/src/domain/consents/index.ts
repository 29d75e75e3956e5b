import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import {
  CONSENT_MESSAGES,
  CONSENT_PURPOSES,
  CONSENT_RULES,
  type ConsentAction,
  type ConsentGroup,
  type ConsentItem,
  type ConsentPurpose,
} from '@contract/main/consents'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ConsentsTable } from '../../db/schema'
import { badRequest, conflict, notFound } from '../../http/errors'
import type { SubscribeMessageProvider } from '../../providers/subscribe-message'
import { examTitle, personLabels } from '../records'

/*
 * The consent ledger (issue 24; README.md beside this file). Every path that asks for a consent
 * writes its row here, in the transaction of what it consents to; withdrawing writes a row too and
 * stops what depended on it, in one transaction. Rows are never updated: the newest row of
 * (purpose, target, subject) is the state, the rows are the history.
 */

export type ConsentRow = Selectable<ConsentsTable>

export interface ConsentRecord {
  /** The account that acts. */
  userId: string
  /** For whom; the acting account when absent. */
  subjectId?: string | null | undefined
  purpose: ConsentPurpose
  version: string
  targetId?: string | null | undefined
  /** The page and the button (CONSENT_CHANNELS for the server's own paths). */
  channel: string
  /** What was named: 向 王专家 共享 2 项记录. */
  detail?: string | null | undefined
  action?: ConsentAction
}

/** Where each consent the server writes is asked: the page, then the button. */
export const CONSENT_CHANNELS = {
  register: '注册 · 同意并注册',
  wechatLogin: '登录 · 微信登录',
  demoAccount: '演示数据 · 创建演示账号',
  expertApplication: '专家认证 · 提交认证',
  consultation: '会诊申请信息 · 同意并提交',
  grant: '授权分享 · 确认授权',
  aiAnalysis: '影像详情 · 申请AI分析',
  publish: '咨询详情 · 公开到专家主页',
  unpublish: '咨询详情 · 取消公开',
  removeQuestion: '我的咨询 · 删除',
  revokeGrant: '授权记录 · 撤销授权',
  privacyCenter: '隐私与授权 · 撤回',
  familyChild: '亲情卡 · 添加儿童（监护人确认）',
  familyAdult: '亲情卡 · 添加家人（家人短信验证码确认）',
  familyEnd: '亲情卡 · 解除',
} as const

/** Writes one row of the ledger (in the caller's transaction). */
export async function writeConsent(db: DB, record: ConsentRecord, now: Date): Promise<void> {
  const subjectId = record.subjectId ?? record.userId
  const targetId = record.targetId ?? null
  let last = db
    .selectFrom('consents')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .where('kind', '=', record.purpose)
    .where('subject_user_id', '=', subjectId)
  last =
    targetId === null ? last.where('target_id', 'is', null) : last.where('target_id', '=', targetId)
  const previous = Number((await last.executeTakeFirst())?.seq ?? 0)
  await db
    .insertInto('consents')
    .values({
      id: randomUUID(),
      seq: previous + 1,
      user_id: record.userId,
      subject_user_id: subjectId,
      kind: record.purpose,
      version: record.version,
      target_id: targetId,
      channel: record.channel,
      detail: record.detail ?? null,
      action: record.action ?? 'given',
      created_at: now.toISOString(),
    })
    .execute()
}

/**
 * The newest row of a consent, if the caller gave it or it is about them; used by withdrawals from
 * other pages (授权记录's 撤销) to record the withdrawal against the right consent.
 */
async function newestRow(
  db: DB,
  purpose: ConsentPurpose,
  targetId: string | null,
  userId: string,
): Promise<ConsentRow | undefined> {
  let query = db
    .selectFrom('consents')
    .selectAll()
    .where('kind', '=', purpose)
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('subject_user_id', '=', userId)]))
  query =
    targetId === null
      ? query.where('target_id', 'is', null)
      : query.where('target_id', '=', targetId)
  return query.orderBy('seq', 'desc').orderBy('created_at', 'desc').executeTakeFirst()
}

/**
 * Records that a consent given for a target has ended by the person's own act elsewhere (a grant
 * revoked in 授权记录, a public answer taken back): one 'withdrawn' row, once.
 */
export async function noteWithdrawn(
  db: DB,
  input: { userId: string; purpose: ConsentPurpose; targetId: string; channel: string },
  now: Date,
): Promise<void> {
  const row = await newestRow(db, input.purpose, input.targetId, input.userId)
  if (!row || row.action === 'withdrawn') return
  await writeConsent(
    db,
    {
      userId: input.userId,
      subjectId: row.subject_user_id,
      purpose: input.purpose,
      version: row.version,
      targetId: input.targetId,
      channel: input.channel,
      detail: row.detail,
      action: 'withdrawn',
    },
    now,
  )
}

/**
 * The records a consent names, as the person knows them: the first exam's title (or the exam of
 * the first report) and how many more, e.g. 胸部 CT 平扫 等 3 项. Kept in the row as shown then.
 */
export async function describeRecords(
  db: DB,
  examIds: readonly string[],
  reportIds: readonly string[],
): Promise<string> {
  const count = examIds.length + reportIds.length
  let examId: string | undefined = examIds[0]
  if (!examId && reportIds[0]) {
    const report = await db
      .selectFrom('reports')
      .select('exam_id')
      .where('id', '=', reportIds[0])
      .executeTakeFirst()
    examId = report?.exam_id ?? undefined
  }
  const exam = examId
    ? await db
        .selectFrom('exams')
        .select(['title', 'description', 'modalities'])
        .where('id', '=', examId)
        .executeTakeFirst()
    : undefined
  const first = exam
    ? `${examTitle(exam)}${reportIds.length > 0 && examIds.length === 0 ? '报告' : ''}`
    : '记录'
  return count > 1 ? `${first} 等 ${count} 项` : first
}

const ACTION_LABELS: Record<ConsentAction, string> = { given: '同意', withdrawn: '撤回' }
const STATE_LABELS: Record<ConsentAction, string> = { given: '已同意', withdrawn: '已撤回' }

/** The rows of one consent (newest first) as the page shows it. */
function toItem(rows: readonly ConsentRow[], subject: string): ConsentItem {
  const newest = rows[0]!
  const purpose = newest.kind as ConsentPurpose
  const state = newest.action as ConsentAction
  return {
    purpose,
    targetId: newest.target_id,
    title: rows.find((row) => row.detail)?.detail ?? CONSENT_RULES[purpose].label,
    subject,
    state,
    stateLabel: STATE_LABELS[state],
    version: newest.version,
    history: rows.map((row) => ({
      action: row.action as ConsentAction,
      actionLabel: ACTION_LABELS[row.action as ConsentAction],
      at: row.created_at,
      version: row.version,
      channel: row.channel,
    })),
    canWithdraw: CONSENT_RULES[purpose].withdrawable && state === 'given',
  }
}

const keyOf = (row: ConsentRow) =>
  `${row.kind}\u0000${row.target_id ?? ''}\u0000${row.subject_user_id ?? row.user_id}`

/** Every consent the caller gave, or that was given for them, grouped by purpose (newest first). */
export async function listConsents(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<{ groups: ConsentGroup[] }> {
  const rows = await db
    .selectFrom('consents')
    .selectAll()
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('subject_user_id', '=', userId)]))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(2000)
    .execute()
  const byKey = new Map<string, ConsentRow[]>()
  for (const row of rows) {
    if (!(CONSENT_PURPOSES as readonly string[]).includes(row.kind)) continue
    const list = byKey.get(keyOf(row)) ?? []
    list.push(row)
    byKey.set(keyOf(row), list)
  }
  const subjects = [...new Set(rows.map((row) => row.subject_user_id ?? row.user_id))]
  const others = subjects.filter((id) => id !== userId)
  const labels = others.length > 0 ? await personLabels(db, cipher, others) : new Map()
  const subjectOf = (row: ConsentRow) => {
    const id = row.subject_user_id ?? row.user_id
    return id === userId ? '本人' : (labels.get(id)?.nameMasked ?? '家人')
  }
  return {
    groups: CONSENT_PURPOSES.map((purpose) => {
      const rule = CONSENT_RULES[purpose]
      return {
        purpose,
        label: rule.label,
        about: rule.about,
        withdrawable: rule.withdrawable,
        onWithdraw: rule.onWithdraw,
        cannotUndo: rule.cannotUndo,
        items: [...byKey.values()]
          .filter((list) => list[0]!.kind === purpose)
          .map((list) => list.sort((a, b) => Number(b.seq) - Number(a.seq)))
          .map((list) => toItem(list, subjectOf(list[0]!))),
      }
    }),
  }
}

/**
 * What withdrawing each purpose stops, in the withdrawal's transaction. Each is a plain conditional
 * update, so a withdrawal racing the thing itself (a grant read, an analysis starting) leaves one
 * outcome: the job of an analysis runs only while its row is still 'queued' (domain/ai/job.ts).
 */
const STOPS: Partial<
  Record<ConsentPurpose, (trx: DB, targetId: string, at: string) => Promise<void>>
> = {
  'consult-share': async (trx, consultationId, at) => {
    await trx
      .updateTable('grants')
      .set({ revoked_at: at })
      .where('consultation_id', '=', consultationId)
      .where('revoked_at', 'is', null)
      .execute()
  },
  grant: async (trx, grantId, at) => {
    await trx
      .updateTable('grants')
      .set({ revoked_at: at })
      .where('id', '=', grantId)
      .where('revoked_at', 'is', null)
      .execute()
  },
  'ai-analysis': async (trx, analysisId, at) => {
    await trx
      .updateTable('ai_analyses')
      .set({
        state: 'failed',
        message: AI_WITHDRAWN,
        result_json: null,
        updated_at: at,
        finished_at: at,
      })
      .where('id', '=', analysisId)
      .where('state', 'in', ['queued', 'done'])
      .execute()
  },
  'public-qa': async (trx, consultationId, at) => {
    await trx
      .updateTable('consultations')
      .set({ published_at: null, updated_at: at })
      .where('id', '=', consultationId)
      .execute()
  },
}

/** What an analysis whose consent was withdrawn says to the patient. */
export const AI_WITHDRAWN = '你已撤回AI分析的同意，分析结果已删除'

/**
 * 撤回 from 隐私与授权: the caller's own consent, or one given for them. Not theirs: 404 as for one
 * that does not exist. Twice: 409; two at once write one row (the caller's row is held).
 */
export async function withdraw(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: { purpose: ConsentPurpose; targetId: string | null },
  now: Date,
): Promise<{ item: ConsentItem; done: string; kept: string | null }> {
  const rule = CONSENT_RULES[input.purpose]
  // Said whoever asks: where the policies are withdrawn is no secret.
  if (!rule.withdrawable) throw badRequest(rule.onWithdraw)
  const row = await newestRow(db, input.purpose, input.targetId, userId)
  if (!row) throw notFound(CONSENT_MESSAGES.notFound)
  if (row.action === 'withdrawn') throw conflict(CONSENT_MESSAGES.alreadyWithdrawn)
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    // The caller's user row is the lock (a no-op update: the row lock on PostgreSQL, the write lock
    // on SQLite), so of two withdrawals at once the second reads the first one's row and stops.
    await trx
      .updateTable('users')
      .set((eb) => ({ deleted_at: eb.ref('deleted_at') }))
      .where('id', '=', userId)
      .execute()
    const stop = STOPS[input.purpose]
    if (stop && input.targetId) await stop(trx, input.targetId, at)
    const again = await newestRow(trx, input.purpose, input.targetId, userId)
    if (again?.action === 'withdrawn') throw conflict(CONSENT_MESSAGES.alreadyWithdrawn)
    await writeConsent(
      trx,
      {
        userId,
        subjectId: row.subject_user_id,
        purpose: input.purpose,
        version: row.version,
        targetId: input.targetId,
        channel: CONSENT_CHANNELS.privacyCenter,
        detail: row.detail,
        action: 'withdrawn',
      },
      now,
    )
  })
  const { groups } = await listConsents(db, cipher, userId)
  const item = groups
    .flatMap((group) => group.items)
    .find((it) => it.purpose === input.purpose && it.targetId === input.targetId)
  return { item: item!, done: rule.onWithdraw, kept: rule.cannotUndo }
}

/** Whether a person withdrew WeChat subscribe messages (newest subscribe row withdrawn). */
export async function subscribeWithdrawn(db: DB, userIds: readonly string[]): Promise<Set<string>> {
  if (userIds.length === 0) return new Set()
  const rows = await db
    .selectFrom('consents')
    .select(['user_id', 'action'])
    .where('kind', '=', 'subscribe')
    .where('user_id', 'in', [...userIds])
    .orderBy('seq', 'asc')
    .execute()
  const newest = new Map<string, string>()
  for (const row of rows) newest.set(row.user_id, row.action)
  return new Set([...newest].filter(([, action]) => action === 'withdrawn').map(([id]) => id))
}

/** Said in the log when a subscribe message is not sent because its consent was withdrawn. */
export const SUBSCRIBE_WITHDRAWN = '用户已撤回订阅消息授权'

/** The subscribe adapter, sending nothing to a person whose newest subscribe consent is withdrawn. */
export function honourSubscribeConsent(
  db: DB,
  provider: SubscribeMessageProvider,
): SubscribeMessageProvider {
  return {
    ...provider,
    async send(notice) {
      const withdrawn = await subscribeWithdrawn(db, [notice.userId])
      if (withdrawn.has(notice.userId)) return { sent: false, reason: SUBSCRIBE_WITHDRAWN }
      return provider.send(notice)
    },
  }
}
