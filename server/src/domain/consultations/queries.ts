import { sql } from 'kysely'
import {
  CONSULT_STATES,
  CONSULT_TAB_STATES,
  CONSULT_TABS,
  type ConsultState,
  type ConsultTab,
  EXPERT_CONSULT_TAB_STATES,
  EXPERT_CONSULT_TABS,
  type ExpertConsultTab,
  type PublicQuestion,
} from '@contract/main/consultations'
import { EXPERT_SERVICE_RULES, type ConsultService } from '@contract/main/expert-profiles'
import { type DB, isPostgres } from '../../db'
import { page, type PageQuery, pageWindow } from '../../db/paging'
import type { ConsultContext } from './context'
import { type Consultation, peopleById, selectCards, toCard, toCards } from './model'

/*
 * The lists: 我的咨询 (patient, by tab), 患者咨询 (expert, by tab, with the Mine badge's counts),
 * the operators' list, and the public Q&A. Newest first; a deleted-from-list consultation is gone
 * from the asker's list and from public view but stays in the expert's and the operators'.
 */

type OwnerColumn = 'patient_user_id' | 'expert_user_id'

/** The owner's consultations as counted by the tabs: the asker's list leaves out what they deleted. */
function ownedBy(db: DB, column: OwnerColumn, userId: string) {
  let query = db.selectFrom('consultations as o').where(`o.${column}`, '=', userId)
  if (column === 'patient_user_id') query = query.where('o.deleted_by_patient_at', 'is', null)
  return query
}

async function countsBy(db: DB, column: OwnerColumn, userId: string) {
  const rows = await ownedBy(db, column, userId)
    .select(['o.state', sql<number>`count(*)`.as('n')])
    .groupBy('o.state')
    .execute()
  return new Map(rows.map((row) => [row.state, Number(row.n)]))
}

/**
 * The same counts as one text column of a page's query (`waiting-accept:3,in-progress:20`): an
 * uncorrelated subquery, computed once per query on both databases, so a list page is one round
 * trip. String aggregation is the one word the two dialects spell differently.
 */
function countsColumn(db: DB, column: OwnerColumn, userId: string) {
  const concat = isPostgres(db) ? sql.raw('string_agg') : sql.raw('group_concat')
  return db
    .selectFrom(
      ownedBy(db, column, userId)
        .select(['o.state', sql<number>`count(*)`.as('n')])
        .groupBy('o.state')
        .as('t'),
    )
    .select(sql<string | null>`${concat}(t.state || ':' || t.n, ',')`.as('counts'))
}

function parseCounts(text: string | null): Map<string, number> {
  const counts = new Map<string, number>()
  for (const part of text ? text.split(',') : []) {
    const at = part.lastIndexOf(':')
    counts.set(part.slice(0, at), Number(part.slice(at + 1)))
  }
  return counts
}

/** A page of cards with the owner's counts by state: one query, a second only for an empty page. */
async function cardsWithCounts(
  db: DB,
  column: OwnerColumn,
  userId: string,
  page: ReturnType<typeof selectCards>,
) {
  const rows = await page.select(countsColumn(db, column, userId).as('tab_counts')).execute()
  const byState =
    rows.length > 0 ? parseCounts(rows[0]!.tab_counts) : await countsBy(db, column, userId)
  return { rows, byState }
}

export async function listMine(
  ctx: ConsultContext,
  userId: string,
  query: PageQuery & { tab: ConsultTab },
) {
  const states = [...CONSULT_TAB_STATES[query.tab]]
  const { page, pageSize, offset } = pageWindow(query)
  const now = ctx.now()
  // The tab's total is its states' counts, which the tabs need anyway: no count query of its own.
  // The page's ids are cut first, so the card's joins and subqueries run for its rows only.
  const ids = ctx.db
    .selectFrom('consultations as c')
    .select('c.id')
    .where('c.patient_user_id', '=', userId)
    .where('c.deleted_by_patient_at', 'is', null)
    .where('c.state', 'in', states)
    .orderBy('c.created_at', 'desc')
    .orderBy('c.id', 'desc')
    .limit(pageSize)
    .offset(offset)
  const { rows: items, byState } = await cardsWithCounts(
    ctx.db,
    'patient_user_id',
    userId,
    selectCards(ctx.db)
      .where('c.id', 'in', ids)
      .orderBy('c.created_at', 'desc')
      .orderBy('c.id', 'desc'),
  )
  const counts = Object.fromEntries(
    CONSULT_TABS.map((tab) => [
      tab,
      CONSULT_TAB_STATES[tab].reduce((sum, state) => sum + (byState.get(state) ?? 0), 0),
    ]),
  ) as Record<ConsultTab, number>
  return {
    items: items.map((row) => toCard(row, 'patient', ctx.cipher, now)),
    total: counts[query.tab],
    page,
    pageSize,
    counts,
  }
}

export async function listForExpert(
  ctx: ConsultContext,
  expertId: string,
  query: PageQuery & { tab: ExpertConsultTab },
) {
  const states = [...EXPERT_CONSULT_TAB_STATES[query.tab]]
  const { page, pageSize, offset } = pageWindow(query)
  const now = ctx.now()
  // 待接诊 and 进行中: the nearest deadline first; 已完成: newest first. The same order cuts the
  // page's ids (so the card's joins run for its rows only) and sorts the cards.
  type OrderColumn = 'c.updated_at' | 'c.accept_by' | 'c.answer_by' | 'c.id'
  const order: [OrderColumn, 'asc' | 'desc'][] =
    query.tab === 'done'
      ? [
          ['c.updated_at', 'desc'],
          ['c.id', 'desc'],
        ]
      : [
          [query.tab === 'waiting' ? 'c.accept_by' : 'c.answer_by', 'asc'],
          ['c.id', 'asc'],
        ]
  let ids = ctx.db
    .selectFrom('consultations as c')
    .select('c.id')
    .where('c.expert_user_id', '=', expertId)
    .where('c.state', 'in', states)
  let cards = selectCards(ctx.db)
  for (const [column, direction] of order) {
    ids = ids.orderBy(column, direction)
    cards = cards.orderBy(column, direction)
  }
  cards = cards.where('c.id', 'in', ids.limit(pageSize).offset(offset))
  // As listMine: the tab's total from the counts.
  const { rows: items, byState } = await cardsWithCounts(ctx.db, 'expert_user_id', expertId, cards)
  const counts = Object.fromEntries(
    EXPERT_CONSULT_TABS.map((tab) => [
      tab,
      EXPERT_CONSULT_TAB_STATES[tab].reduce((sum, state) => sum + (byState.get(state) ?? 0), 0),
    ]),
  ) as Record<ExpertConsultTab, number>
  return {
    items: items.map((row) => toCard(row, 'expert', ctx.cipher, now)),
    total: counts[query.tab],
    page,
    pageSize,
    counts,
  }
}

/** The Mine tab badge: new questions waiting, unread messages in open ones, 采纳 so far. */
export async function expertCounts(ctx: ConsultContext, expertId: string) {
  const row = await ctx.db
    .selectFrom('consultations')
    .select([
      sql<number>`sum(case when state = 'waiting-accept' then 1 else 0 end)`.as('waiting'),
      sql<number>`sum(case when state in ('in-progress', 'answered') then message_seq - expert_read_seq else 0 end)`.as(
        'unread',
      ),
      sql<number>`sum(case when adopted_at is not null then 1 else 0 end)`.as('adopted'),
    ])
    .where('expert_user_id', '=', expertId)
    .executeTakeFirst()
  return {
    waiting: Number(row?.waiting ?? 0),
    unread: Number(row?.unread ?? 0),
    adopted: Number(row?.adopted ?? 0),
  }
}

export async function listForOperator(
  ctx: ConsultContext,
  query: PageQuery & { state?: ConsultState | undefined; disputed?: '1' | undefined },
) {
  let base = ctx.db.selectFrom('consultations')
  if (query.state) base = base.where('state', '=', query.state)
  if (query.disputed) {
    base = base.where(
      'id',
      'in',
      ctx.db
        .selectFrom('consultation_complaints')
        .select('consultation_id')
        .where('state', '=', 'open'),
    )
  }
  const found = await page(
    query,
    base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    base.select('id'),
    { size: 20 },
  )
  const cards = await toCards(ctx.db, ctx.cipher, found.items, 'patient', ctx.now())
  const ids = found.items.map((row) => row.id)
  const [complaints, refunds, byState, disputed] = await Promise.all([
    ids.length
      ? ctx.db
          .selectFrom('consultation_complaints')
          .selectAll()
          .where('consultation_id', 'in', ids)
          .execute()
      : [],
    ids.length
      ? ctx.db
          .selectFrom('consultation_refunds')
          .select(['consultation_id', sql<number>`sum(amount_fen)`.as('total')])
          .where('consultation_id', 'in', ids)
          .groupBy('consultation_id')
          .execute()
      : [],
    ctx.db
      .selectFrom('consultations')
      .select(['state', sql<number>`count(*)`.as('n')])
      .groupBy('state')
      .execute(),
    ctx.db
      .selectFrom('consultation_complaints')
      .select(sql<number>`count(*)`.as('n'))
      .where('state', '=', 'open')
      .executeTakeFirst(),
  ])
  const items = cards.map((card, index) => {
    const row = found.items[index]!
    const complaint = complaints.find((one) => one.consultation_id === row.id)
    return {
      ...card,
      complaint: complaint
        ? {
            text: complaint.text,
            at: complaint.created_at,
            state: complaint.state as 'open' | 'decided',
          }
        : null,
      paidFen: row.paid_at ? Number(row.price_fen) : 0,
      refundedFen: Number(refunds.find((one) => one.consultation_id === row.id)?.total ?? 0),
    }
  })
  const counts = Object.fromEntries(
    CONSULT_STATES.map((state) => [
      state,
      Number(byState.find((one) => one.state === state)?.n ?? 0),
    ]),
  ) as Record<ConsultState, number>
  return { ...found, items, counts, disputed: Number(disputed?.n ?? 0) }
}

/** The anonymised public copy: the question and the answer's text, the asker as 男 45岁. */
export async function listPublic(
  ctx: ConsultContext,
  viewerId: string | null,
  query: PageQuery & { expertId?: string | undefined },
) {
  let base = ctx.db
    .selectFrom('consultations')
    .innerJoin('experts', 'experts.user_id', 'consultations.expert_user_id')
    .where('consultations.published_at', 'is not', null)
    .where('consultations.deleted_by_patient_at', 'is', null)
    .where('consultations.state', '=', 'completed')
    .where('experts.suspended_at', 'is', null)
  if (query.expertId) base = base.where('consultations.expert_user_id', '=', query.expertId)
  const found = await page(
    query,
    base
      .selectAll('consultations')
      .select('experts.name as expert_name')
      .orderBy('consultations.published_at', 'desc')
      .orderBy('consultations.id'),
    base.select('consultations.id'),
  )
  const rows = found.items as (Consultation & { expert_name: string | null })[]
  const ids = rows.map((row) => row.id)
  const [answers, people, favourites] = await Promise.all([
    ids.length
      ? ctx.db
          .selectFrom('consultation_messages')
          .select(['consultation_id', 'text', 'answer_json', 'seq'])
          .where('consultation_id', 'in', ids)
          .where('kind', '=', 'answer')
          .execute()
      : [],
    peopleById(
      ctx.db,
      ctx.cipher,
      null,
      rows.map((row) => row.person_user_id),
      ctx.now(),
    ),
    viewerId && ids.length
      ? ctx.db
          .selectFrom('favourites')
          .select('target_id')
          .where('user_id', '=', viewerId)
          .where('kind', '=', 'question')
          .where('target_id', 'in', ids)
          .execute()
      : [],
  ])
  const items: PublicQuestion[] = rows.map((row) => {
    const found = answers.find((one) => one.consultation_id === row.id)
    const parsed = found?.answer_json
      ? (JSON.parse(found.answer_json) as { findings: string; opinion: string; advice: string })
      : null
    const person = people.get(row.person_user_id)
    const sex = person?.sex === 'male' ? '男' : person?.sex === 'female' ? '女' : ''
    return {
      id: row.id,
      expertId: row.expert_user_id,
      expertName: row.expert_name ?? '',
      serviceLabel: EXPERT_SERVICE_RULES[row.service as ConsultService].label,
      askerLabel: [
        '患者',
        sex,
        person?.age !== null && person?.age !== undefined ? `${person.age}岁` : '',
      ]
        .filter(Boolean)
        .join(' '),
      question: `${row.chief_complaint}\n${row.questions}`,
      answer: parsed
        ? [parsed.findings, parsed.opinion, parsed.advice].filter(Boolean).join('\n')
        : (found?.text ?? ''),
      answeredAt: row.answered_at ?? row.completed_at ?? row.updated_at,
      favourited: favourites.some((one) => one.target_id === row.id),
    }
  })
  return { ...found, items }
}
