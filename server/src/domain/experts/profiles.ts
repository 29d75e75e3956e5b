import { type Expression, type SelectQueryBuilder, type SqlBool, sql } from 'kysely'
import {
  CONSULT_SERVICES,
  type ConsultService,
  EXPERT_PROFILE_MESSAGES,
  EXPERT_SERVICE_RULES,
  type ExpertCard,
  type ExpertProfile,
  type ExpertService,
} from '@contract/main/expert-profiles'
import { EXPERT_TITLE_LABELS, EXPERT_TITLES, type ExpertTitle } from '@contract/main/experts'
import { HospitalCardSchema } from '@contract/hospitals'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { Database, DB } from '../../db'
import { contains } from '../../db/contains'
import type { ExpertsTable } from '../../db/schema'
import { notFound } from '../../http/errors'
import { toHospital } from '../hospitals'
import { parseList } from './applications'

/*
 * The public side of a certified expert, in ONE place: who is public (publicExperts), which columns a
 * card reads (CARD_COLUMNS) and how a row reads as a card or a profile (toExpertCard). The directory,
 * the profile, 搜索 and 收藏 all start from publicExperts, so "suspended means gone" holds in all of
 * them at once. What a card never carries: the ID number, the certificate numbers, the certificate
 * photos, the phone (none of those columns are even selected here).
 */

type ExpertTables = 'experts' | 'users' | 'hospitals'
export type ExpertQuery = SelectQueryBuilder<Database, ExpertTables, object>

/**
 * Every expert whose account still exists, suspended or not: what the expert themself and operators
 * start from. A row without its certified name (certified before migration 0022, until start-up
 * fills it) is nobody's card yet.
 */
export function certifiedExperts(db: DB): ExpertQuery {
  return db
    .selectFrom('experts')
    .innerJoin('users', 'users.id', 'experts.user_id')
    .innerJoin('hospitals', 'hospitals.id', 'experts.hospital_id')
    .where('users.deleted_at', 'is', null)
    .where('experts.name', 'is not', null)
}

/** Whether the person has an expert profile (suspended or not): their 我的主页 and 服务设置 exist. */
export async function isCertifiedExpert(db: DB, userId: string): Promise<boolean> {
  const row = await certifiedExperts(db)
    .select('experts.user_id')
    .where('experts.user_id', '=', userId)
    .executeTakeFirst()
  return row !== undefined
}

/** The public experts: certified, account not deleted, not suspended by the platform. */
export function publicExperts(db: DB): ExpertQuery {
  return certifiedExperts(db).where('experts.suspended_at', 'is', null)
}

/** Name, hospital, department or a speciality contains `q` (the one Chinese substring match). */
export function expertMatches(db: DB, q: string): Expression<SqlBool> {
  // Specialities are a JSON array of dictionary words; a substring of the text finds a word's part.
  return sql<SqlBool>`(${sql.join(
    [
      contains(db, 'experts.name', q),
      contains(db, 'hospitals.name', q),
      contains(db, 'experts.department', q),
      contains(db, 'experts.specialities', q),
    ],
    sql` or `,
  )})`
}

/** 主任医师 first: the order of EXPERT_TITLES, as SQL (literals: the titles are ours, not input). */
export const TITLE_RANK = sql<number>`case experts.title ${sql.join(
  EXPERT_TITLES.map((title, rank) => sql`when ${sql.lit(title)} then ${sql.lit(rank)}`),
  sql` `,
)} else ${sql.lit(EXPERT_TITLES.length)} end`

/** Where each service's switch and price live. */
export const SERVICE_COLUMNS = {
  text: { enabled: 'text_enabled', price: 'text_price_fen' },
  imaging: { enabled: 'imaging_enabled', price: 'imaging_price_fen' },
} as const satisfies Record<
  ConsultService,
  { enabled: keyof ExpertsTable; price: keyof ExpertsTable }
>

/** What a card is read from. Hospital columns are aliased: `name` is the expert's. */
export const CARD_COLUMNS = [
  'experts.user_id',
  'experts.name',
  'experts.photo_path',
  'users.avatar_url',
  'experts.title',
  'experts.department',
  'experts.specialities',
  'experts.accepting',
  'experts.text_enabled',
  'experts.text_price_fen',
  'experts.imaging_enabled',
  'experts.imaging_price_fen',
  'experts.demo',
  'experts.introduction',
  'experts.certified_at',
  'experts.suspended_at',
  'experts.suspended_reason',
  'hospitals.id as hospital_id',
  'hospitals.name as hospital_name',
  'hospitals.level as hospital_level',
  'hospitals.province as hospital_province',
  'hospitals.city as hospital_city',
  'hospitals.address as hospital_address',
] as const

export interface CardRow {
  user_id: string
  name: string | null
  photo_path: string | null
  avatar_url: string | null
  title: string
  department: string
  specialities: string
  accepting: number
  text_enabled: number
  text_price_fen: number
  imaging_enabled: number
  imaging_price_fen: number
  demo: number
  introduction: string
  certified_at: string
  suspended_at: string | null
  suspended_reason: string | null
  hospital_id: string
  hospital_name: string
  hospital_level: string
  hospital_province: string
  hospital_city: string
  hospital_address: string
}

// PostgreSQL may hand integers back as text; flags are 0/1 on both databases.
const flag = (value: number | string) => Number(value) === 1

export function toServices(row: Pick<CardRow, `${ConsultService}_${'enabled' | 'price_fen'}`>) {
  return CONSULT_SERVICES.map((kind): ExpertService => ({
    kind,
    label: EXPERT_SERVICE_RULES[kind].label,
    enabled: flag(row[SERVICE_COLUMNS[kind].enabled]),
    priceFen: Number(row[SERVICE_COLUMNS[kind].price]),
    hours: EXPERT_SERVICE_RULES[kind].hours,
  }))
}

export function titleLabel(title: string): string {
  return EXPERT_TITLE_LABELS[title as ExpertTitle] ?? title
}

/**
 * The expert's public picture: one set for the profile, else their own avatar (我的 → 个人信息, an
 * upload served publicly under /uploads like every avatar). Public once certified, as a doctor's
 * photo is on every consultation platform; never a certificate photo.
 */
export function expertPhoto(row: Pick<CardRow, 'photo_path' | 'avatar_url'>): string | null {
  return row.photo_path ?? row.avatar_url
}

export function toExpertCard(row: CardRow): ExpertCard {
  return {
    id: row.user_id,
    name: row.name ?? '',
    photoPath: expertPhoto(row),
    title: row.title as ExpertTitle,
    titleLabel: titleLabel(row.title),
    hospital: toHospital(
      {
        id: row.hospital_id,
        name: row.hospital_name,
        level: row.hospital_level,
        province: row.hospital_province,
        city: row.hospital_city,
        address: row.hospital_address,
      },
      HospitalCardSchema,
    ),
    department: row.department,
    specialities: parseList(row.specialities),
    accepting: flag(row.accepting),
    services: toServices(row),
    demo: flag(row.demo),
  }
}

/** 职称 · 医院 · 科室: how a favourite and a search hit describe an expert in one line. */
export function expertLine(row: Pick<CardRow, 'title' | 'hospital_name' | 'department'>): string {
  return [titleLabel(row.title), row.hospital_name, row.department].join(' · ')
}

export async function favouriteCountOf(db: DB, expertId: string): Promise<number> {
  const row = await db
    .selectFrom('favourites')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('kind', '=', 'expert')
    .where('target_id', '=', expertId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

/**
 * The profile (personalDetail): public to everyone while the expert is public; a suspended expert's
 * page is still theirs to see (their 我的主页 says why it is hidden). Anyone else gets 404, the
 * same as for an id that was never an expert, so the answer tells nothing about a suspension.
 */
export async function getExpertProfile(
  db: DB,
  expertId: string,
  callerId: string | undefined,
): Promise<ExpertProfile> {
  const self = callerId === expertId
  const row = await (self ? certifiedExperts(db) : publicExperts(db))
    .select(CARD_COLUMNS)
    .where('experts.user_id', '=', expertId)
    .executeTakeFirst()
  if (!row) throw notFound(EXPERT_PROFILE_MESSAGES.notFound)
  return toProfile(db, row, callerId)
}

export async function toProfile(
  db: DB,
  row: CardRow,
  callerId: string | undefined,
): Promise<ExpertProfile> {
  const [favouriteCount, mine, stats] = await Promise.all([
    favouriteCountOf(db, row.user_id),
    callerId
      ? db
          .selectFrom('favourites')
          .select('target_id')
          .where('user_id', '=', callerId)
          .where('kind', '=', 'expert')
          .where('target_id', '=', row.user_id)
          .executeTakeFirst()
      : undefined,
    consultationStats(db, row.user_id),
  ])
  return {
    ...toExpertCard(row),
    introduction: row.introduction,
    certifiedAt: row.certified_at,
    stats,
    favouriteCount,
    favourited: mine !== undefined,
    self: callerId === row.user_id,
  }
}

/**
 * The certified name of rows certified before migration 0022 (a migration has no cipher): the bound
 * card's holder, as approval copies it now. Runs at every start; after the first it finds nothing.
 */
export async function fillExpertNames(db: DB, cipher: FieldCipher): Promise<number> {
  const rows = await db
    .selectFrom('experts')
    .innerJoin('id_cards', 'id_cards.user_id', 'experts.user_id')
    .select(['experts.user_id', 'id_cards.holder_encrypted'])
    .where('experts.name', 'is', null)
    .execute()
  for (const row of rows) {
    await db
      .updateTable('experts')
      .set({ name: cipher.decrypt(row.holder_encrypted) })
      .where('user_id', '=', row.user_id)
      .where('name', 'is', null)
      .execute()
  }
  return rows.length
}

/**
 * The figures a patient judges an expert by, from their consultations: answered ones, the share
 * 采纳, the median time from payment to the first answer, the mean rating. Null until the expert has
 * answered one: the app says 暂无咨询数据 rather than zeros that read as a bad doctor.
 */
export async function consultationStats(db: DB, expertId: string): Promise<ExpertProfile['stats']> {
  const rows = await db
    .selectFrom('consultations')
    .select(['paid_at', 'answered_at', 'adopted_at', 'rating_stars', 'state'])
    .where('expert_user_id', '=', expertId)
    .where('answered_at', 'is not', null)
    .execute()
  if (rows.length === 0) return null
  const minutes = rows
    .filter((one) => one.paid_at && one.answered_at)
    .map((one) => (Date.parse(one.answered_at!) - Date.parse(one.paid_at!)) / 60_000)
    .sort((a, b) => a - b)
  const median =
    minutes.length === 0
      ? null
      : Math.round(
          minutes.length % 2
            ? minutes[(minutes.length - 1) / 2]!
            : (minutes[minutes.length / 2 - 1]! + minutes[minutes.length / 2]!) / 2,
        )
  const ended = rows.filter((one) => one.state === 'completed')
  const ratings = rows
    .filter((one) => one.rating_stars !== null)
    .map((one) => Number(one.rating_stars))
  return {
    answered: rows.length,
    adoptionRate:
      ended.length === 0 ? null : ended.filter((one) => one.adopted_at).length / ended.length,
    medianFirstAnswerMinutes: median,
    rating:
      ratings.length === 0
        ? null
        : Math.round((ratings.reduce((a, b) => a + b, 0) / ratings.length) * 10) / 10,
    ratingCount: ratings.length,
  }
}
