import { createHash, randomBytes, randomInt, randomUUID } from 'node:crypto'
import { CONSENT_TEXT_VERSIONS } from '@contract/main/consents'
import {
  ACCOUNT_GRANTS_PER_DAY,
  GRANT_DURATION_SECONDS,
  GRANT_MESSAGES,
  GRANT_PURPOSE_LABELS,
  GRANT_RECORDS_MAX,
  GRANT_STATUS_LABELS,
  type Grant,
  type GrantDuration,
  type GrantRecord,
  type GrantStatus,
  PICKUP_CODE_LENGTH,
  type ReceivedGrant,
} from '@contract/main/grants'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { GrantsTable } from '../../db/schema'
import { badRequest, notFound, tooManyRequests } from '../../http/errors'
import { maskMobile } from '../../masking'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { CONSENT_CHANNELS, describeRecords, noteWithdrawn, writeConsent } from '../consents'
import { DAY, keyedHash } from '../identity'
import { reserve } from '../limits'
import { createMessage } from '../messages'
import {
  assertPersonInReach,
  boundIdentity,
  EXAM_NOT_FOUND,
  managedPeople,
  visibleTo,
  examTitle,
  modalityList,
  personLabels,
  sharerText,
} from '../records'
import { chinaTime } from '../security-notices'

/*
 * Grants (授权记录, issue 9), as the person whose records they are manages them. What a grant lets
 * its holder read is decided in domain/records/access.ts (DICOMweb) and shared.ts (/shared routes);
 * views are written by views.ts.
 *
 * No re-share: a grant covers only records that are the person's OWN (visibleTo of the person:
 * uploads, claims, exams matching their bound card), never what they see through someone else's
 * grant or as a family manager. A private report is covered only when named in reportIds.
 */

export const SHARE_VISITOR = '分享访客'

/** SHA-256 of a random token (128 bits or more: a bare hash is right for those). */
export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex')
}

/** The 提取码's keyed hash, bound to its grant (a bare hash of 10 000 codes is reversed at once). */
export function pickupHash(grantId: string, code: string): string {
  return keyedHash('grant-pickup', `${grantId}:${code}`)
}

/** 有效 / 已过期 / 已撤销 / 次数已用完 on the server clock. */
export function grantStatus(grant: GrantsTable, now: Date): GrantStatus {
  if (grant.revoked_at) return 'revoked'
  if (grant.expires_at <= now.toISOString()) return 'expired'
  if (grant.max_views !== null && Number(grant.opens) >= Number(grant.max_views)) return 'exhausted'
  return 'active'
}

/**
 * Whether whoever already holds the grant is cut off: revoked or expired. A link whose openings are
 * used up keeps serving the sessions opened before (each was a counted view), until their own end.
 */
export function grantEnded(grant: GrantsTable, now: Date): boolean {
  return grant.revoked_at !== null || grant.expires_at <= now.toISOString()
}

/** What each grant covers, as lists show it. */
export async function grantRecords(
  db: DB,
  grantIds: readonly string[],
): Promise<Map<string, GrantRecord[]>> {
  const out = new Map<string, GrantRecord[]>()
  if (grantIds.length === 0) return out
  const rows = await db
    .selectFrom('grant_records')
    .innerJoin('exams', 'exams.id', 'grant_records.exam_id')
    .leftJoin('hospitals', 'hospitals.id', 'exams.hospital_id')
    .leftJoin('reports', (join) =>
      join
        .onRef('reports.id', '=', 'grant_records.record_id')
        .on('grant_records.kind', '=', 'report'),
    )
    .select([
      'grant_records.grant_id',
      'grant_records.kind',
      'grant_records.record_id',
      'grant_records.exam_id',
      'grant_records.private',
      'exams.title',
      'exams.description',
      'exams.modalities',
      'exams.study_date',
      'exams.hospital_text',
      'hospitals.name as hospital_name',
      'reports.code_text',
    ])
    .where('grant_records.grant_id', 'in', [...grantIds])
    .orderBy('grant_records.grant_id')
    .orderBy('exams.study_date', 'desc')
    .orderBy('grant_records.kind')
    .orderBy('grant_records.record_id')
    .execute()
  for (const row of rows) {
    const exam = { title: row.title, description: row.description, modalities: row.modalities }
    const record: GrantRecord = {
      kind: row.kind,
      id: row.record_id,
      examId: row.exam_id,
      title:
        row.kind === 'report' ? row.code_text?.trim() || `${examTitle(exam)}报告` : examTitle(exam),
      hospitalName: row.hospital_name ?? row.hospital_text ?? null,
      studyDate: row.study_date,
      modalities: modalityList(row.modalities),
      private: Number(row.private) === 1,
    }
    const list = out.get(row.grant_id) ?? []
    list.push(record)
    out.set(row.grant_id, list)
  }
  return out
}

/** Grants as their owner sees them (授权记录), in the order given. */
export async function describeGrants(
  db: DB,
  cipher: FieldCipher,
  grants: readonly GrantsTable[],
  now: Date,
): Promise<Grant[]> {
  if (grants.length === 0) return []
  const ids = grants.map((g) => g.id)
  const [records, labels, views] = await Promise.all([
    grantRecords(db, ids),
    personLabels(db, cipher, [
      ...grants.map((g) => g.person_user_id),
      ...grants.flatMap((g) => (g.grantee_user_id ? [g.grantee_user_id] : [])),
    ]),
    db
      .selectFrom('grant_views')
      .select((eb) => [
        'grant_id',
        eb.fn.countAll<number>().as('views'),
        eb.fn.max('last_at').as('last_at'),
      ])
      .where('grant_id', 'in', ids)
      .groupBy('grant_id')
      .execute(),
  ])
  const viewsOf = new Map(views.map((v) => [v.grant_id, v]))
  return grants.map((grant) => {
    const status = grantStatus(grant, now)
    const grantee = grant.grantee_user_id ? labels.get(grant.grantee_user_id) : undefined
    const seen = viewsOf.get(grant.id)
    return {
      id: grant.id,
      audience: grant.audience,
      purpose: grant.purpose,
      purposeLabel: GRANT_PURPOSE_LABELS[grant.purpose],
      status,
      statusLabel: GRANT_STATUS_LABELS[status],
      personId: grant.person_user_id,
      personNameMasked: labels.get(grant.person_user_id)?.nameMasked ?? null,
      records: records.get(grant.id) ?? [],
      grantee:
        grant.grantee_user_id && grantee
          ? {
              userId: grant.grantee_user_id,
              nameMasked: grantee.nameMasked,
              mobileMasked: grantee.mobileMasked,
              role: grantee.role,
            }
          : null,
      pickupCode: grant.pickup_hash !== null,
      maxViews: grant.max_views === null ? null : Number(grant.max_views),
      views: Number(seen?.views ?? 0),
      opens: Number(grant.opens),
      lastViewAt: (seen?.last_at as string | null | undefined) ?? null,
      createdAt: grant.created_at,
      expiresAt: grant.expires_at,
      revokedAt: grant.revoked_at,
    }
  })
}

/**
 * A grant made by a family manager (not by the person) of a report that was not private then, which
 * the person has marked private (设为隐私) since: the member never chose to share it, and their
 * privacy now locks it to the manager (access.ts privateToMember), so it is locked to the manager's
 * grantees too. A person's own grants share what they named, private or not.
 */
export async function hiddenSinceGranted(
  db: DB,
  grant: GrantsTable,
  examId: string,
  /** The report was private when shared (grant_records.private): named itself, so shown. */
  sharedPrivate: boolean,
): Promise<boolean> {
  if (grant.created_by_user_id === grant.person_user_id || sharedPrivate) return false
  const state = await db
    .selectFrom('exam_user_states')
    .select('report_private')
    .where('user_id', '=', grant.person_user_id)
    .where('exam_id', '=', examId)
    .executeTakeFirst()
  return Number(state?.report_private ?? 0) === 1
}

/** A grant as its holder sees it (共享给我的, the visitor's page). */
export async function describeReceived(
  db: DB,
  cipher: FieldCipher,
  grant: GrantsTable,
  watermark: string,
  now: Date,
): Promise<ReceivedGrant> {
  const [records, labels] = await Promise.all([
    grantRecords(db, [grant.id]),
    personLabels(db, cipher, [grant.person_user_id]),
  ])
  const status = grantStatus(grant, now)
  // A report the member has made private since a manager shared it is not listed (it answers 404).
  const shown: GrantRecord[] = []
  for (const record of records.get(grant.id) ?? []) {
    const hidden =
      record.kind === 'report' &&
      (await hiddenSinceGranted(db, grant, record.examId, record.private))
    if (!hidden) shown.push(record)
  }
  return {
    id: grant.id,
    status,
    statusLabel: GRANT_STATUS_LABELS[status],
    sharerMasked: sharerText(labels.get(grant.person_user_id)),
    records: shown,
    expiresAt: grant.expires_at,
    createdAt: grant.created_at,
    watermark,
  }
}

export interface CreateGrantInput {
  audience: 'account' | 'link'
  examIds: string[]
  reportIds: string[]
  duration: GrantDuration
  mobile?: string | undefined
  pickupCode?: boolean | undefined
  maxViews?: number | undefined
  personId?: string | undefined
}

export interface CreatedGrant {
  grant: Grant
  link: { token: string; pickupCode: string | null; title: string } | null
  /** The grantee's subscribe message, to send after the commit (none for a link). */
  notices: SubscribeNotice[]
}

/**
 * Inside the transaction that made an account grant: the grantee's 授权提醒, which opens the shared
 * records (the share page, by route name). The page asks the server again when opened, so once the
 * grant has ended it says 授权已失效 and shows nothing. Names the sharer masked, as 共享给我的 does,
 * and what was shared by its exam type and hospital, never its findings.
 */
async function tellGrantee(
  trx: DB,
  cipher: FieldCipher,
  grant: GrantsTable,
  now: Date,
): Promise<SubscribeNotice[]> {
  if (grant.grantee_user_id === null) return []
  const [records, labels] = await Promise.all([
    grantRecords(trx, [grant.id]),
    personLabels(trx, cipher, [grant.person_user_id]),
  ])
  const shared = records.get(grant.id) ?? []
  const first = shared.find((record) => record.kind === 'exam') ?? shared[0]
  const sharer = sharerText(labels.get(grant.person_user_id))
  // An exam's images and its report are one exam to the reader: 「头颅 MR」的影像和报告.
  const exams = new Set(shared.map((record) => record.examId)).size
  const kinds = new Set(shared.filter((r) => r.examId === first?.examId).map((r) => r.kind))
  const parts = kinds.size === 2 ? '影像和报告' : kinds.has('exam') ? '影像' : '报告'
  const what = first
    ? `「${first.title}」${exams > 1 ? `等 ${exams} 项检查的记录` : `的${parts}`}${first.hospitalName ? `（${first.hospitalName}）` : ''}`
    : '检查记录'
  const until = chinaTime(new Date(grant.expires_at))
  await createMessage(
    trx,
    {
      userId: grant.grantee_user_id,
      kind: 'grant',
      title: '您收到一份授权',
      body: `${sharer}向您分享了${what}，有效期至 ${until}（北京时间），到期或对方撤销后将无法查看。`,
      link: { route: 'share', params: { grantId: grant.id } },
    },
    now,
  )
  return [
    {
      userId: grant.grantee_user_id,
      template: 'grant-received',
      data: { sharer, record: first?.title ?? '检查记录', expiresAt: until },
    },
  ]
}

/**
 * The records `personId` may share (their OWN: no re-share), checked for the caller `userId` (the
 * person, or their family manager). Anything else answers as a missing exam (404). Used by
 * createGrant and by consultations (consultation-grants.ts).
 */
export async function shareableRecords(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  personId: string,
  examIds: readonly string[],
  reportIds: readonly string[],
): Promise<{
  exams: { id: string }[]
  reports: { id: string; exam_id: string; report_private: number | null }[]
}> {
  // Only the person's own records (no re-share); anything else answers as a missing exam.
  const identity = await boundIdentity(db, cipher, personId)
  const own = { kind: 'user' as const, userId: personId }
  const exams =
    examIds.length === 0
      ? []
      : await db
          .selectFrom('exams')
          .select('exams.id')
          .where('exams.id', 'in', examIds)
          .where(visibleTo(own, identity))
          .execute()
  if (exams.length !== examIds.length) throw notFound(EXAM_NOT_FOUND)
  const reports =
    reportIds.length === 0
      ? []
      : await db
          .selectFrom('reports')
          .innerJoin('exams', 'exams.id', 'reports.exam_id')
          .leftJoin('exam_user_states as s', (join) =>
            join.onRef('s.exam_id', '=', 'exams.id').on('s.user_id', '=', personId),
          )
          .select(['reports.id', 'reports.exam_id', 's.report_private'])
          .where('reports.id', 'in', reportIds)
          .where(visibleTo(own, identity))
          .execute()
  if (reports.length !== reportIds.length) throw notFound(EXAM_NOT_FOUND)
  // An adult member's 设为隐私 is proved by the member's own phone only: a manager cannot share it.
  if (personId !== userId) {
    const members = await managedPeople(db, cipher, userId)
    const adult = members.find((m) => m.personId === personId)?.kind === 'adult'
    if (adult && reports.some((r) => Number(r.report_private ?? 0) === 1)) {
      throw notFound(EXAM_NOT_FOUND)
    }
  }

  return { exams, reports }
}

/** createGrant: checks, then the grant and its records in one transaction. */
export async function createGrant(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: CreateGrantInput,
  now: Date,
): Promise<CreatedGrant> {
  const examIds = [...new Set(input.examIds)]
  const reportIds = [...new Set(input.reportIds)]
  if (examIds.length + reportIds.length === 0) throw badRequest(GRANT_MESSAGES.noRecords)
  if (examIds.length + reportIds.length > GRANT_RECORDS_MAX) {
    throw badRequest(GRANT_MESSAGES.tooManyRecords)
  }
  const personId = input.personId ?? userId
  await assertPersonInReach(db, userId, personId)

  let granteeId: string | null = null
  if (input.audience === 'account') {
    if (input.pickupCode || input.maxViews !== undefined) throw badRequest(GRANT_MESSAGES.linkOnly)
    if (!input.mobile) throw badRequest(GRANT_MESSAGES.mobileRequired)
    // Reserved before the look-up (and kept, found or not): the answer says whether the number is
    // registered, so a day's look-ups are bounded per person.
    const slot = await reserve(db, {
      key: `grant-account:${userId}`,
      limit: ACCOUNT_GRANTS_PER_DAY,
      windowMs: DAY,
      now,
    })
    if (!slot.ok) throw tooManyRequests(GRANT_MESSAGES.accountGrantsExhausted)
    const grantee = await db
      .selectFrom('users')
      .select('id')
      .where('mobile', '=', input.mobile)
      .where('deleted_at', 'is', null)
      .executeTakeFirst()
    if (!grantee) throw badRequest(GRANT_MESSAGES.noAccount)
    if (grantee.id === personId || grantee.id === userId) throw badRequest(GRANT_MESSAGES.self)
    granteeId = grantee.id
  }

  const { exams, reports } = await shareableRecords(
    db,
    cipher,
    userId,
    personId,
    examIds,
    reportIds,
  )

  const id = randomUUID()
  const at = now.toISOString()
  const expiresAt = new Date(now.getTime() + GRANT_DURATION_SECONDS[input.duration] * 1000)
  let link: CreatedGrant['link'] = null
  let tokenHash: string | null = null
  let pickup: string | null = null
  if (input.audience === 'link') {
    // 128 random bits, shown once; only its SHA-256 is kept.
    const token = randomBytes(16).toString('base64url')
    tokenHash = hashToken(token)
    const code = input.pickupCode
      ? String(randomInt(0, 10 ** PICKUP_CODE_LENGTH)).padStart(PICKUP_CODE_LENGTH, '0')
      : null
    if (code) pickup = pickupHash(id, code)
    const labels = await personLabels(db, cipher, [personId])
    const what = examIds.length > 0 ? '影像' : '报告'
    // The share card shows the surname only: 张**分享的影像.
    const surname = [...(labels.get(personId)?.nameMasked ?? '')][0]
    link = { token, pickupCode: code, title: `${surname ? `${surname}**` : ''}分享的${what}` }
  }
  const row: GrantsTable = {
    id,
    person_user_id: personId,
    created_by_user_id: userId,
    audience: input.audience,
    grantee_user_id: granteeId,
    token_hash: tokenHash,
    pickup_hash: pickup,
    max_views: input.audience === 'link' ? (input.maxViews ?? null) : null,
    opens: 0,
    created_at: at,
    expires_at: expiresAt.toISOString(),
    revoked_at: null,
    first_viewed_at: null,
    purpose: 'share',
    consultation_id: null,
  }
  const notices = await db.transaction().execute(async (trx) => {
    await trx.insertInto('grants').values(row).execute()
    const records = [
      ...exams.map((exam) => ({
        grant_id: id,
        kind: 'exam' as const,
        record_id: exam.id,
        exam_id: exam.id,
        private: 0,
      })),
      ...reports.map((report) => ({
        grant_id: id,
        kind: 'report' as const,
        record_id: report.id,
        exam_id: report.exam_id,
        private: Number(report.report_private ?? 0) === 1 ? 1 : 0,
      })),
    ]
    await trx.insertInto('grant_records').values(records).execute()
    const shared = await describeRecords(trx, examIds, reportIds)
    await writeConsent(
      trx,
      {
        userId,
        subjectId: personId,
        purpose: 'grant',
        version: CONSENT_TEXT_VERSIONS.grant,
        targetId: id,
        channel: CONSENT_CHANNELS.grant,
        detail:
          input.audience === 'link'
            ? `链接分享 ${shared}`
            : `授权 ${maskMobile(input.mobile ?? '')} 查看 ${shared}`,
      },
      now,
    )
    return tellGrantee(trx, cipher, row, now)
  })
  const [grant] = await describeGrants(db, cipher, [row], now)
  return { grant: grant!, link, notices }
}

/**
 * A grant the caller may manage: one made for themselves, or for a member they manage now.
 * Anything else answers 404 GRANT_MESSAGES.notFound (ids reveal nothing).
 */
export async function ownedGrant(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  grantId: string,
): Promise<GrantsTable> {
  const grant = await db
    .selectFrom('grants')
    .selectAll()
    .where('id', '=', grantId)
    .executeTakeFirst()
  if (!grant) throw notFound(GRANT_MESSAGES.notFound)
  if (grant.person_user_id === userId) return grant
  const members = await managedPeople(db, cipher, userId)
  if (members.some((m) => m.personId === grant.person_user_id)) return grant
  throw notFound(GRANT_MESSAGES.notFound)
}

/** 授权记录 of a person (the caller or a managed member), newest first. */
export async function listGrants(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: { personId?: string | undefined; examId?: string | undefined },
  now: Date,
): Promise<Grant[]> {
  const personId = input.personId ?? userId
  await assertPersonInReach(db, userId, personId)
  let query = db
    .selectFrom('grants')
    .selectAll()
    .where('person_user_id', '=', personId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(500)
  if (input.examId) {
    const examId = input.examId
    query = query.where((eb) =>
      eb(
        'grants.id',
        'in',
        eb.selectFrom('grant_records').select('grant_id').where('exam_id', '=', examId),
      ),
    )
  }
  return describeGrants(db, cipher, await query.execute(), now)
}

/** 撤销: at once and idempotent; the holder's next request is answered 403 授权已失效. */
export async function cancelGrant(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  grantId: string,
  now: Date,
): Promise<Grant> {
  const owned = await ownedGrant(db, cipher, userId, grantId)
  await db.transaction().execute(async (trx) => {
    const revoked = await trx
      .updateTable('grants')
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', grantId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    // The consent it stood on is withdrawn too (隐私与授权 shows it), once.
    if (Number(revoked.numUpdatedRows) === 1) {
      await noteWithdrawn(
        trx,
        owned.purpose === 'consultation' && owned.consultation_id
          ? {
              userId,
              purpose: 'consult-share',
              targetId: owned.consultation_id,
              channel: CONSENT_CHANNELS.revokeGrant,
            }
          : { userId, purpose: 'grant', targetId: grantId, channel: CONSENT_CHANNELS.revokeGrant },
        now,
      )
    }
  })
  const grant = await db
    .selectFrom('grants')
    .selectAll()
    .where('id', '=', grantId)
    .executeTakeFirstOrThrow()
  const [described] = await describeGrants(db, cipher, [grant], now)
  return described!
}

/** 共享给我的: active account grants to the caller, newest first. */
export async function listReceivedGrants(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  now: Date,
): Promise<ReceivedGrant[]> {
  const grants = await db
    .selectFrom('grants')
    .innerJoin('users', 'users.id', 'grants.person_user_id')
    .selectAll('grants')
    .where('grants.grantee_user_id', '=', userId)
    .where('grants.audience', '=', 'account')
    .where('grants.revoked_at', 'is', null)
    .where('grants.expires_at', '>', now.toISOString())
    .where('users.deleted_at', 'is', null)
    .orderBy('grants.created_at', 'desc')
    .orderBy('grants.id', 'desc')
    .limit(200)
    .execute()
  const watermark = sharerText((await personLabels(db, cipher, [userId])).get(userId))
  return Promise.all(grants.map((grant) => describeReceived(db, cipher, grant, watermark, now)))
}
