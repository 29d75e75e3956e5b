import { randomUUID } from 'node:crypto'
import type { Selectable } from 'kysely'
import {
  COMPLAINT_DAYS,
  CONSULT_FOLLOWUP_HOURS,
  CONSULT_MESSAGES,
  CONSULT_STATE_LABELS,
  type ConsultCard,
  type ConsultDetail,
  type ConsultMessage,
  type ConsultPerson,
  type ConsultPicture,
  type ConsultState,
  REFUND_STATE_LABELS,
} from '@contract/main/consultations'
import { EXPERT_SERVICE_RULES, type ConsultService } from '@contract/main/expert-profiles'
import { EXPERT_TITLE_LABELS, type ExpertTitle } from '@contract/main/experts'
import { FAMILY_RELATION_LABELS, type FamilyRelation } from '@contract/main/family'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ConsultationsTable } from '../../db/schema'
import { notFound } from '../../http/errors'
import { maskName } from '../../masking'
import { insertQueuedJob, type JobRow } from '../../jobs/runner'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { createMessage } from '../messages'
import { describeConsultGrant } from '../sharing'

export type Consultation = Selectable<ConsultationsTable>
export type Actor = 'patient' | 'expert' | 'system' | 'operator'
export type Side = 'patient' | 'expert'

export const HOUR_MS = 3600_000
export const DAY_MS = 24 * HOUR_MS
export const ENDED_STATES: readonly ConsultState[] = [
  'completed',
  'cancelled',
  'declined',
  'expired',
]
export const isEnded = (c: Pick<Consultation, 'state'>) =>
  ENDED_STATES.includes(c.state as ConsultState)

export const PICTURE_ROUTE = (id: string) => `/main/consultations/pictures/${id}`

/** Realtime pointers (never contents) to publish after the commit. */
export type ConsultSignal =
  | { kind: 'consultation.changed'; consultationId: string }
  | { kind: 'consultation.message'; consultationId: string; cursor: number }
  | { kind: 'consultation.new'; consultationId: string }

/**
 * What a state change leaves to do after its transaction commits: realtime signals, jobs to start
 * at once (a refund), subscribe notices. Collected inside, run by `afterCommit` (context.ts).
 */
export interface Effects {
  signals: { userIds: string[]; signal: ConsultSignal }[]
  jobs: JobRow[]
  /** WeChat subscribe messages, sent after the commit (未配置 until an adapter is configured). */
  notices: SubscribeNotice[]
}
export const noEffects = (): Effects => ({ signals: [], jobs: [], notices: [] })

/** The consultation the caller may see on that side; anyone else: 404 (ids reveal nothing). */
export async function consultationFor(
  db: DB,
  userId: string,
  consultationId: string,
  side?: Side,
): Promise<{ row: Consultation; side: Side }> {
  const row = await db
    .selectFrom('consultations')
    .selectAll()
    .where('id', '=', consultationId)
    .executeTakeFirst()
  if (row && (side ?? 'patient') === 'patient' && row.patient_user_id === userId) {
    if (!row.deleted_by_patient_at) return { row, side: 'patient' }
  }
  if (row && (side ?? 'expert') === 'expert' && row.expert_user_id === userId) {
    return { row, side: 'expert' }
  }
  throw notFound(CONSULT_MESSAGES.notFound)
}

/**
 * Reads the row again inside a transaction, holding it: a no-op update takes the row's lock on
 * PostgreSQL and the write lock on SQLite (which has no SELECT … FOR UPDATE), so whoever comes next
 * waits for this transaction and then reads what it wrote.
 */
export async function lockConsultation(trx: DB, id: string): Promise<Consultation | undefined> {
  return trx
    .updateTable('consultations')
    .set((eb) => ({ updated_at: eb.ref('updated_at') }))
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst()
}

/**
 * Moves a consultation from one of `from` to `to` by one conditional update, with its event row
 * and a system line in the conversation. Answers the new row, or undefined when the state was no
 * longer one of `from` (someone else won: the caller answers 409 or does nothing).
 */
export async function transition(
  trx: DB,
  effects: Effects,
  input: {
    id: string
    from: readonly ConsultState[]
    to: ConsultState
    set?: Partial<ConsultationsTable>
    actor: Actor
    note?: string | null
    /** The line both sides read in the conversation. */
    line?: string
  },
  now: Date,
): Promise<Consultation | undefined> {
  const at = now.toISOString()
  const row = await trx
    .updateTable('consultations')
    .set({ ...input.set, state: input.to, updated_at: at })
    .where('id', '=', input.id)
    .where('state', 'in', [...input.from])
    .returningAll()
    .executeTakeFirst()
  if (!row) return undefined
  await recordEvent(trx, row.id, input.to, input.actor, input.note ?? null, now)
  if (input.line) await appendSystemLine(trx, effects, row, input.line, now)
  effects.signals.push({
    userIds: [row.patient_user_id, row.expert_user_id],
    signal: { kind: 'consultation.changed', consultationId: row.id },
  })
  return row
}

export async function recordEvent(
  trx: DB,
  consultationId: string,
  state: ConsultState,
  actor: Actor,
  note: string | null,
  now: Date,
): Promise<void> {
  await trx
    .insertInto('consultation_events')
    .values({
      id: randomUUID(),
      consultation_id: consultationId,
      state,
      actor,
      note,
      at: now.toISOString(),
    })
    .execute()
}

/** The next seq of a conversation, taken under the row's lock (one writer at a time per consultation). */
export async function nextSeq(trx: DB, consultationId: string): Promise<number> {
  const row = await trx
    .updateTable('consultations')
    .set((eb) => ({ message_seq: eb('message_seq', '+', 1) }))
    .where('id', '=', consultationId)
    .returning('message_seq')
    .executeTakeFirstOrThrow()
  return Number(row.message_seq)
}

export async function appendSystemLine(
  trx: DB,
  effects: Effects,
  row: Pick<Consultation, 'id' | 'patient_user_id' | 'expert_user_id'>,
  text: string,
  now: Date,
): Promise<void> {
  const seq = await nextSeq(trx, row.id)
  await trx
    .insertInto('consultation_messages')
    .values({
      id: randomUUID(),
      consultation_id: row.id,
      seq,
      sender: 'system',
      sender_user_id: null,
      client_id: null,
      kind: 'system',
      text,
      picture_id: null,
      record_kind: null,
      record_id: null,
      answer_json: null,
      signed_at: null,
      created_at: now.toISOString(),
    })
    .execute()
  effects.signals.push({
    userIds: [row.patient_user_id, row.expert_user_id],
    signal: { kind: 'consultation.message', consultationId: row.id, cursor: seq },
  })
}

/**
 * A 我的消息 entry (咨询消息) that opens the consultation, for one side, and the same as a WeChat
 * subscribe message after the commit (the mini-program asked for it on the tap that submitted or
 * accepted; 未配置 until an adapter is configured).
 */
export async function tell(
  trx: DB,
  effects: Effects,
  userId: string,
  consultationId: string,
  title: string,
  body: string,
  now: Date,
  route: 'question' | 'patientQuestions' = 'question',
): Promise<void> {
  await createMessage(
    trx,
    {
      userId,
      kind: 'consult',
      title,
      body,
      link: { route, params: route === 'question' ? { id: consultationId } : {} },
    },
    now,
  )
  effects.notices.push({
    userId,
    template: 'consult-update',
    data: { title, detail: body.slice(0, 20) },
  })
}

/** A timer: the consultation's deadline job, taken when due by whichever process sweeps first. */
export async function scheduleTimer(trx: DB, consultationId: string, at: string): Promise<void> {
  const id = randomUUID()
  await insertQueuedJob(trx, {
    id,
    kind: 'consult-timer',
    stagingPrefix: `jobs-without-files/${id}/`,
    subjectId: consultationId,
    runAfter: new Date(at),
  })
}

// --- Reading -------------------------------------------------------------------------------------

interface ExpertRow {
  user_id: string
  name: string | null
  photo_path: string | null
  avatar_url: string | null
  title: string
  department: string
  hospital_name: string
}

export function toConsultExpert(row: ExpertRow | undefined, id: string) {
  return {
    id,
    name: row?.name ?? '专家',
    photoPath: row ? (row.photo_path ?? row.avatar_url) : null,
    title: (row?.title ?? 'attending') as ExpertTitle,
    titleLabel: EXPERT_TITLE_LABELS[(row?.title ?? 'attending') as ExpertTitle] ?? '',
    hospitalName: row?.hospital_name ?? '',
    department: row?.department ?? '',
  }
}

/** Sex and age from a mainland ID number (digits 7–14 the birth date, 17 odd for male). */
export function sexAndAge(
  idNumber: string | null,
  now: Date,
): { sex: 'male' | 'female' | 'unknown'; age: number | null } {
  const match = idNumber ? /^\d{6}(\d{4})(\d{2})(\d{2})\d{2}(\d)[\dXx]$/.exec(idNumber) : null
  if (!match) return { sex: 'unknown', age: null }
  const [, y, m, d, s] = match
  const china = new Date(now.getTime() + 8 * HOUR_MS)
  let age = china.getUTCFullYear() - Number(y)
  const monthDay = (china.getUTCMonth() + 1) * 100 + china.getUTCDate()
  if (monthDay < Number(m) * 100 + Number(d)) age -= 1
  return { sex: Number(s) % 2 === 1 ? 'male' : 'female', age: age >= 0 ? age : null }
}

type ShownPerson = ConsultPerson & { idCardBound: boolean }

/**
 * The 就诊人 of (asker, person) pairs as the consultation shows them: masked name, sex and age from
 * the card, and the relation to that asker (本人, the family relation, else 就诊人). Two queries
 * whatever the number of pairs (the people with their cards, the askers' family links), so a list
 * of many askers' consultations costs what one asker's does. Keyed by `pairKey(asker, person)`;
 * a person who is not found has no entry.
 */
async function describePeople(
  db: DB,
  cipher: FieldCipher,
  pairs: readonly { askerId: string | null; personId: string }[],
  now: Date,
): Promise<Map<string, ShownPerson>> {
  const shown = new Map<string, ShownPerson>()
  const ids = [...new Set(pairs.map((pair) => pair.personId))]
  if (ids.length === 0) return shown
  const askers = [...new Set(pairs.flatMap((pair) => (pair.askerId ? [pair.askerId] : [])))]
  const [rows, links] = await Promise.all([
    db
      .selectFrom('users')
      .leftJoin('id_cards', 'id_cards.user_id', 'users.id')
      .select([
        'users.id',
        'users.nickname',
        'id_cards.holder_encrypted',
        'id_cards.number_encrypted',
      ])
      .where('users.id', 'in', ids)
      .execute(),
    askers.length > 0
      ? db
          .selectFrom('family_links')
          .select(['manager_user_id', 'member_user_id', 'relation'])
          .where('manager_user_id', 'in', askers)
          .where('member_user_id', 'in', ids)
          .execute()
      : [],
  ])
  const relations = new Map(
    links.map((link) => [pairKey(link.manager_user_id, link.member_user_id), link.relation]),
  )
  const people = new Map(
    rows.map((row) => {
      let name = ''
      let number: string | null = null
      try {
        if (row.holder_encrypted) name = cipher.decrypt(row.holder_encrypted)
        if (row.number_encrypted) number = cipher.decrypt(row.number_encrypted)
      } catch {
        name = ''
      }
      return [row.id, { row, name, ...sexAndAge(number, now) }] as const
    }),
  )
  for (const { askerId, personId } of pairs) {
    const person = people.get(personId)
    if (!person) continue
    const relation = askerId ? relations.get(pairKey(askerId, personId)) : undefined
    shown.set(pairKey(askerId, personId), {
      personId,
      nameMasked: maskName(person.name || person.row.nickname || '就诊人'),
      sex: person.sex,
      age: person.age,
      relationLabel:
        personId === askerId
          ? '本人'
          : relation
            ? (FAMILY_RELATION_LABELS[relation as FamilyRelation] ?? '家人')
            : '就诊人',
      idCardBound: person.row.holder_encrypted !== null,
    })
  }
  return shown
}

const pairKey = (askerId: string | null, personId: string) => `${askerId ?? ''}\u0000${personId}`

/** The 就诊人 as the consultation shows them: masked name, sex and age from the card, relation. */
export async function peopleById(
  db: DB,
  cipher: FieldCipher,
  askerId: string | null,
  personIds: readonly string[],
  now: Date,
): Promise<Map<string, ShownPerson>> {
  const shown = await describePeople(
    db,
    cipher,
    personIds.map((personId) => ({ askerId, personId })),
    now,
  )
  const people = new Map<string, ShownPerson>()
  for (const personId of personIds) {
    const person = shown.get(pairKey(askerId, personId))
    if (person) people.set(personId, person)
  }
  return people
}

type DeadlineColumn = 'pay_by' | 'accept_by' | 'answer_by' | 'complete_at'

/** The deadline of the current state and what it means, for lists and the detail. */
export function deadlineOf(row: Pick<Consultation, 'state' | DeadlineColumn>): {
  deadline: string | null
  label: string | null
} {
  switch (row.state as ConsultState) {
    case 'pending-payment':
      return { deadline: row.pay_by, label: '剩余支付时间' }
    case 'waiting-accept':
      return { deadline: row.accept_by, label: '接诊剩余' }
    case 'in-progress':
      return { deadline: row.answer_by, label: '回复剩余' }
    case 'answered':
      return { deadline: row.complete_at, label: '自动完成' }
    default:
      return { deadline: null, label: null }
  }
}

/**
 * Cards in one query: the card columns with the expert (name, title, hospital), the 就诊人 (their
 * card, for the masked name, sex and age), the asker's relation to them and whether a 投诉 waits.
 * The lists filter and order this (table alias `c`); on PostgreSQL each query is a round trip and
 * a good part of a list request's CPU, so a page is one query, not four.
 */
export function selectCards(db: DB) {
  return db
    .selectFrom('consultations as c')
    .leftJoin('experts as e', 'e.user_id', 'c.expert_user_id')
    .leftJoin('users as eu', 'eu.id', 'c.expert_user_id')
    .leftJoin('hospitals as h', 'h.id', 'e.hospital_id')
    .leftJoin('users as pu', 'pu.id', 'c.person_user_id')
    .leftJoin('id_cards as pc', 'pc.user_id', 'c.person_user_id')
    .select([
      'c.id',
      'c.patient_user_id',
      'c.person_user_id',
      'c.expert_user_id',
      'c.service',
      'c.state',
      'c.chief_complaint',
      'c.price_fen',
      'c.created_at',
      'c.message_seq',
      'c.patient_read_seq',
      'c.expert_read_seq',
      'c.pay_by',
      'c.accept_by',
      'c.answer_by',
      'c.complete_at',
      'e.name as expert_name',
      'e.photo_path as expert_photo_path',
      'eu.avatar_url as expert_avatar_url',
      'e.title as expert_title',
      'e.department as expert_department',
      'h.name as expert_hospital_name',
      'pu.nickname as person_nickname',
      'pc.holder_encrypted as person_holder_encrypted',
      'pc.number_encrypted as person_number_encrypted',
    ])
    .select((eb) => [
      // The asker's link to the person; the newest when links ended and began again.
      eb
        .selectFrom('family_links as fl')
        .select('fl.relation')
        .whereRef('fl.manager_user_id', '=', 'c.patient_user_id')
        .whereRef('fl.member_user_id', '=', 'c.person_user_id')
        .orderBy('fl.created_at', 'desc')
        .limit(1)
        .as('person_relation'),
      eb
        .exists(
          eb
            .selectFrom('consultation_complaints as cc')
            .select('cc.consultation_id')
            .whereRef('cc.consultation_id', '=', 'c.id')
            .where('cc.state', '=', 'open'),
        )
        .as('disputed'),
    ])
}

export type CardRow = Awaited<ReturnType<ReturnType<typeof selectCards>['execute']>>[number]

/** One card from its joined row (selectCards): decrypts the person's card, masks the name. */
export function toCard(row: CardRow, side: Side, cipher: FieldCipher, now: Date): ConsultCard {
  const { deadline, label } = deadlineOf(row)
  const read = side === 'patient' ? row.patient_read_seq : row.expert_read_seq
  let name = ''
  let number: string | null = null
  try {
    if (row.person_holder_encrypted) name = cipher.decrypt(row.person_holder_encrypted)
    if (row.person_number_encrypted) number = cipher.decrypt(row.person_number_encrypted)
  } catch {
    name = ''
  }
  const { sex, age } = sexAndAge(number, now)
  const found = row.person_nickname !== null || row.person_holder_encrypted !== null
  const relation = row.person_relation
  return {
    id: row.id,
    service: row.service as ConsultService,
    serviceLabel: EXPERT_SERVICE_RULES[row.service as ConsultService].label,
    state: row.state as ConsultState,
    stateLabel: CONSULT_STATE_LABELS[row.state as ConsultState],
    expert: toConsultExpert(
      row.expert_title === null
        ? undefined
        : {
            user_id: row.expert_user_id,
            name: row.expert_name,
            photo_path: row.expert_photo_path,
            avatar_url: row.expert_avatar_url,
            title: row.expert_title,
            department: row.expert_department ?? '',
            hospital_name: row.expert_hospital_name ?? '',
          },
      row.expert_user_id,
    ),
    person: found
      ? {
          personId: row.person_user_id,
          nameMasked: maskName(name || row.person_nickname || '就诊人'),
          sex,
          age,
          relationLabel:
            row.person_user_id === row.patient_user_id
              ? '本人'
              : relation
                ? (FAMILY_RELATION_LABELS[relation as FamilyRelation] ?? '家人')
                : '就诊人',
        }
      : { personId: '', nameMasked: '就诊人', sex: 'unknown', age: null, relationLabel: '' },
    chiefComplaint: row.chief_complaint,
    priceFen: Number(row.price_fen),
    createdAt: row.created_at,
    deadline,
    deadlineLabel: label,
    unread: Math.max(0, Number(row.message_seq) - Number(read)),
    disputed: Boolean(row.disputed),
  }
}

/** Cards of consultations already read (the operators' list, a detail), in their order: one query. */
export async function toCards(
  db: DB,
  cipher: FieldCipher,
  rows: readonly { id: string }[],
  side: Side,
  now: Date,
): Promise<ConsultCard[]> {
  if (rows.length === 0) return []
  const found = await selectCards(db)
    .where(
      'c.id',
      'in',
      rows.map((row) => row.id),
    )
    .execute()
  const byId = new Map(found.map((row) => [row.id, row]))
  return rows.flatMap((row) => {
    const card = byId.get(row.id)
    return card ? [toCard(card, side, cipher, now)] : []
  })
}

export interface StoredApplication {
  offline: string[]
  exams: { hospital: string; date: string; type: string; pictureIds: string[] }[]
}

export function parseApplication(row: Consultation): StoredApplication {
  try {
    return JSON.parse(row.external_exams_json) as StoredApplication
  } catch {
    return { offline: [], exams: [] }
  }
}

async function picturesById(db: DB, ids: readonly string[]): Promise<Map<string, ConsultPicture>> {
  if (ids.length === 0) return new Map()
  const rows = await db
    .selectFrom('consultation_pictures')
    .select(['id', 'width', 'height'])
    .where('id', 'in', [...new Set(ids)])
    .execute()
  return new Map(
    rows.map((row) => [
      row.id,
      { id: row.id, url: PICTURE_ROUTE(row.id), width: row.width, height: row.height },
    ]),
  )
}

export async function describeConsultation(
  db: DB,
  cipher: FieldCipher,
  row: Consultation,
  side: Side,
  now: Date,
): Promise<ConsultDetail> {
  const [card] = await toCards(db, cipher, [row], side, now)
  const application = parseApplication(row)
  const [pictures, events, complaint, refunds, grant] = await Promise.all([
    picturesById(db, [
      ...application.offline,
      ...application.exams.flatMap((exam) => exam.pictureIds),
    ]),
    db
      .selectFrom('consultation_events')
      .selectAll()
      .where('consultation_id', '=', row.id)
      .orderBy('at')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('consultation_complaints')
      .selectAll()
      .where('consultation_id', '=', row.id)
      .executeTakeFirst(),
    db
      .selectFrom('consultation_refunds')
      .selectAll()
      .where('consultation_id', '=', row.id)
      .orderBy('created_at')
      .execute(),
    describeConsultGrant(db, cipher, row.grant_id, now),
  ])
  const pics = (ids: string[]) => ids.flatMap((id) => (pictures.has(id) ? [pictures.get(id)!] : []))
  const state = row.state as ConsultState
  const paid = row.paid_at !== null
  const ended = isEnded(row)
  const endedAt = row.ended_at ? Date.parse(row.ended_at) : null
  const inComplaintWindow = endedAt === null || now.getTime() - endedAt <= COMPLAINT_DAYS * DAY_MS
  const followupsOpen =
    state === 'answered' &&
    row.answered_at !== null &&
    now.getTime() - Date.parse(row.answered_at) <= CONSULT_FOLLOWUP_HOURS * HOUR_MS &&
    Number(row.followups_used) < Number(row.followup_limit)
  const disputed = complaint?.state === 'open'
  const patient = side === 'patient'
  const refundedFen = refunds.reduce((sum, refund) => sum + Number(refund.amount_fen), 0)
  const actors: Record<string, string> = {
    patient: '患者',
    expert: '专家',
    system: '系统',
    operator: '平台',
  }
  return {
    ...card!,
    role: side,
    presentIllness: row.present_illness,
    pastHistory: row.past_history,
    allergies: row.allergies,
    questions: row.questions,
    seenOffline: Number(row.seen_offline) === 1,
    offlinePictures: pics(application.offline),
    externalExams: application.exams.map((exam) => ({
      hospital: exam.hospital,
      date: exam.date,
      type: exam.type,
      pictures: pics(exam.pictureIds),
    })),
    records: grant.records,
    grant: {
      id: grant.id,
      status: grant.status,
      statusLabel: grant.statusLabel,
      expiresAt: grant.expiresAt,
    },
    events: events.map((event) => ({
      state: event.state as ConsultState,
      label: CONSULT_STATE_LABELS[event.state as ConsultState],
      actorLabel: actors[event.actor] ?? '系统',
      note: event.note,
      at: event.at,
    })),
    declineReason: row.decline_reason,
    followupLimit: Number(row.followup_limit),
    followupsUsed: Number(row.followups_used),
    adopted: row.adopted_at !== null,
    rating:
      row.rated_at && row.rating_stars !== null
        ? {
            stars: Number(row.rating_stars),
            tags: JSON.parse(row.rating_tags ?? '[]') as string[],
            text: row.rating_text ?? '',
            at: row.rated_at,
          }
        : null,
    complaint: complaint
      ? {
          text: complaint.text,
          state: complaint.state as 'open' | 'decided',
          decision: complaint.decision_note,
          refundFen: complaint.refund_fen === null ? null : Number(complaint.refund_fen),
          at: complaint.created_at,
          decidedAt: complaint.decided_at,
        }
      : null,
    public: row.published_at !== null,
    actions: {
      pay: patient && state === 'pending-payment' && Date.parse(row.pay_by) > now.getTime(),
      cancel: patient && (state === 'pending-payment' || state === 'waiting-accept') && !disputed,
      accept: !patient && state === 'waiting-accept',
      decline: !patient && state === 'waiting-accept',
      send: patient
        ? (state === 'waiting-accept' || state === 'in-progress' || followupsOpen) && !disputed
        : (state === 'in-progress' || state === 'answered') && !disputed,
      answer: !patient && (state === 'in-progress' || state === 'answered') && !disputed,
      adopt: patient && state === 'answered' && !disputed,
      rate: patient && state === 'completed' && row.rated_at === null && row.answered_at !== null,
      complain:
        patient &&
        paid &&
        !complaint &&
        (state === 'in-progress' || state === 'answered' || state === 'completed') &&
        (!ended || inComplaintWindow),
      publish: patient && state === 'completed' && row.answered_at !== null,
    },
    order: {
      orderNo: row.order_no,
      priceFen: Number(row.price_fen),
      expertFen: Number(row.expert_fen),
      platformFen: Number(row.platform_fen),
      provider: row.provider as 'wechatpay' | 'demo' | 'unconfigured',
      paymentState: paid ? 'paid' : state === 'pending-payment' ? 'pending' : 'closed',
      paidAt: row.paid_at,
      payBy: row.pay_by,
      refunds: refunds.map((refund) => ({
        refundNo: refund.refund_no,
        amountFen: Number(refund.amount_fen),
        state: refund.state as 'processing' | 'succeeded' | 'failed',
        stateLabel: REFUND_STATE_LABELS[refund.state as 'processing' | 'succeeded' | 'failed'],
        reason: refund.reason,
        createdAt: refund.created_at,
        succeededAt: refund.succeeded_at,
      })),
      refundedFen,
    },
  }
}

export function toMessage(
  row: {
    id: string
    seq: number
    kind: string
    sender: string
    sender_user_id: string | null
    client_id: string | null
    text: string
    picture_id: string | null
    answer_json: string | null
    exam_request_json?: string | null
    signed_at: string | null
    created_at: string
  },
  viewerId: string,
  otherReadSeq: number,
  records: Map<string, ConsultMessage['record']>,
  recordKey: string | null,
): ConsultMessage {
  return {
    id: row.id,
    seq: Number(row.seq),
    kind: row.kind as ConsultMessage['kind'],
    from: row.sender as ConsultMessage['from'],
    mine: row.sender_user_id === viewerId,
    clientId: row.sender_user_id === viewerId ? row.client_id : null,
    text: row.text,
    picture: row.picture_id
      ? { id: row.picture_id, url: PICTURE_ROUTE(row.picture_id), width: null, height: null }
      : null,
    record: recordKey ? (records.get(recordKey) ?? null) : null,
    answer: row.answer_json ? (JSON.parse(row.answer_json) as ConsultMessage['answer']) : null,
    examRequest: row.exam_request_json
      ? (JSON.parse(row.exam_request_json) as ConsultMessage['examRequest'])
      : null,
    signedAt: row.signed_at,
    createdAt: row.created_at,
    read: Number(row.seq) <= otherReadSeq,
  }
}
