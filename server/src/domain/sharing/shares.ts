import { randomUUID } from 'node:crypto'
import {
  GRANT_MESSAGES,
  GRANT_STATUS_LABELS,
  type GrantStatus,
  PICKUP_ATTEMPTS_MAX,
  PICKUP_LOCK_MINUTES,
  PICKUP_WRONG_TOTAL_MAX,
  type ReceivedGrant,
  SHARE_SESSION_SECONDS,
  SHARE_TOKEN_PREFIX,
} from '@contract/main/grants'
import type { ExamDetail, ReportDetail } from '@contract/main/records'
import { REASONS } from '@contract/reasons'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { GrantsTable } from '../../db/schema'
import { badRequest, forbidden, notFound, tooManyRequests, unauthorized } from '../../http/errors'
import { findSessionByAccessToken, randomToken, sameHash, DAY } from '../identity'
import { releaseAll, reserveAll } from '../limits'
import { createMessage } from '../messages'
import {
  EXAM_NOT_FOUND,
  personLabels,
  type RecordsCaller,
  recordOwner,
  sharerText,
} from '../records'
import { examDetail, REPORT_NOT_VISIBLE, toReportDetail } from '../patient'
import {
  describeReceived,
  grantEnded,
  grantStatus,
  hashToken,
  hiddenSinceGranted,
  pickupHash,
  SHARE_VISITOR,
} from './grants'

/*
 * Link visitors and reads through a grant (issue 9).
 *
 * getShare is the preview a browser or WeChat fetches: it names the sharer (masked), says whether a
 * 提取码 is needed and counts nothing. openShare checks the code (wrong codes are limited per link,
 * reserve first: limits.ts) and then takes one opening with a single atomic UPDATE that also checks
 * revocation, expiry and max_views, so a burst can never open more than max_views sessions. The
 * visitor gets a `yxs_` bearer token for this grant only (stored as SHA-256), valid until the
 * earlier of the grant's expiry and SHARE_SESSION_SECONDS from now.
 */

export const SHARE_SESSION_INVALID = GRANT_MESSAGES.linkInvalid

async function grantByToken(db: DB, token: string): Promise<GrantsTable> {
  const grant = await db
    .selectFrom('grants')
    .innerJoin('users', 'users.id', 'grants.person_user_id')
    .selectAll('grants')
    .where('grants.token_hash', '=', hashToken(token))
    .where('grants.audience', '=', 'link')
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!grant) throw notFound(GRANT_MESSAGES.linkInvalid, REASONS.grantLinkInvalid)
  return grant
}

export interface SharePreview {
  sharerMasked: string
  needsPickupCode: boolean
  expiresAt: string
  status: GrantStatus
  statusLabel: string
  recordCount: number
}

export async function previewShare(
  db: DB,
  cipher: FieldCipher,
  token: string,
  now: Date,
): Promise<SharePreview> {
  const grant = await grantByToken(db, token)
  const [labels, count] = await Promise.all([
    personLabels(db, cipher, [grant.person_user_id]),
    db
      .selectFrom('grant_records')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('grant_id', '=', grant.id)
      .executeTakeFirstOrThrow(),
  ])
  const status = grantStatus(grant, now)
  return {
    sharerMasked: sharerText(labels.get(grant.person_user_id)),
    needsPickupCode: grant.pickup_hash !== null,
    expiresAt: grant.expires_at,
    status,
    statusLabel: GRANT_STATUS_LABELS[status],
    recordCount: Number(count.n),
  }
}

/**
 * The last wrong 提取码 a link may take: the link ends (revoked, so 授权记录 says 已撤销) and its
 * owner gets a message, once, whoever guessed in parallel.
 */
async function endGuessedLink(db: DB, grant: GrantsTable, now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const ended = await trx
      .updateTable('grants')
      .set({ revoked_at: now.toISOString() })
      .where('id', '=', grant.id)
      .where('revoked_at', 'is', null)
      .executeTakeFirst()
    if (Number(ended.numUpdatedRows) === 0) return
    await createMessage(
      trx,
      {
        userId: grant.person_user_id,
        kind: 'grant',
        title: '分享链接已自动失效',
        body: `有人连续 ${PICKUP_WRONG_TOTAL_MAX} 次输错提取码，为保护您的信息，该分享链接已失效。如需继续分享，请重新生成链接。`,
        link: { route: 'grantList', params: { grantId: grant.id } },
      },
      now,
    )
  })
}

export interface OpenedShare {
  accessToken: string
  expiresAt: string
  grant: ReceivedGrant
}

export async function openShare(
  db: DB,
  cipher: FieldCipher,
  input: { token: string; pickupCode?: string | undefined },
  now: Date,
): Promise<OpenedShare> {
  const grant = await grantByToken(db, input.token)
  if (grantEnded(grant, now)) throw forbidden(GRANT_MESSAGES.ended, REASONS.grantEnded)
  if (grant.pickup_hash !== null) {
    if (!input.pickupCode) throw badRequest(GRANT_MESSAGES.pickupRequired)
    // Reserve first: a burst of guesses cannot overtake either count. The window's (5 per 15
    // minutes) first, then the link's whole life's (20, longer than any grant lasts).
    const window = {
      key: `pickup:${grant.id}`,
      limit: PICKUP_ATTEMPTS_MAX,
      windowMs: PICKUP_LOCK_MINUTES * 60_000,
    }
    const life = {
      key: `pickup-total:${grant.id}`,
      limit: PICKUP_WRONG_TOTAL_MAX,
      windowMs: 31 * DAY,
    }
    const slots = await reserveAll(db, [window, life], now)
    if (!slots.ok) {
      if (slots.rule === life) throw forbidden(GRANT_MESSAGES.pickupExhausted)
      throw tooManyRequests(GRANT_MESSAGES.pickupLocked)
    }
    if (!sameHash(pickupHash(grant.id, input.pickupCode), grant.pickup_hash)) {
      const [, lifeSlot] = slots.slots
      if (lifeSlot!.remaining === 0) {
        await endGuessedLink(db, grant, now)
        throw forbidden(GRANT_MESSAGES.pickupExhausted)
      }
      throw badRequest(GRANT_MESSAGES.pickupWrong)
    }
    // The right code does not count against the link's holders.
    await releaseAll(db, slots.slots)
  }
  const at = now.toISOString()
  const taken = await db
    .updateTable('grants')
    .set((eb) => ({ opens: eb('opens', '+', 1) }))
    .where('id', '=', grant.id)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', at)
    .where((eb) => eb.or([eb('max_views', 'is', null), eb('opens', '<', eb.ref('max_views'))]))
    .returning(['opens', 'expires_at'])
    .executeTakeFirst()
  if (!taken) throw forbidden(GRANT_MESSAGES.ended, REASONS.grantEnded)
  const sessionEnd = Math.min(
    Date.parse(taken.expires_at),
    now.getTime() + SHARE_SESSION_SECONDS * 1000,
  )
  const accessToken = `${SHARE_TOKEN_PREFIX}${randomToken()}`
  const expiresAt = new Date(sessionEnd).toISOString()
  await db
    .insertInto('share_sessions')
    .values({
      id: randomUUID(),
      grant_id: grant.id,
      token_hash: hashToken(accessToken),
      created_at: at,
      expires_at: expiresAt,
    })
    .execute()
  const fresh = { ...grant, opens: Number(taken.opens) }
  return {
    accessToken,
    expiresAt,
    grant: await describeReceived(db, cipher, fresh, SHARE_VISITOR, now),
  }
}

/** Someone reading through a grant: the grant and who they are, for access and the view log. */
export interface GrantReader {
  grant: GrantsTable
  caller: Extract<RecordsCaller, { kind: 'share' }>
  /** The grantee's account; null for a link visitor. */
  viewerUserId: string | null
  watermark: string
}

/**
 * A `yxs_` token's share session, judged now: unknown or past its own end → 403 链接无效或已失效;
 * its grant revoked or expired → 403 授权已失效.
 */
export async function shareSessionReader(db: DB, token: string, now: Date): Promise<GrantReader> {
  const row = await db
    .selectFrom('share_sessions')
    .innerJoin('grants', 'grants.id', 'share_sessions.grant_id')
    .innerJoin('users', 'users.id', 'grants.person_user_id')
    .selectAll('grants')
    .select(['share_sessions.id as session_id', 'share_sessions.expires_at as session_expires_at'])
    .where('share_sessions.token_hash', '=', hashToken(token))
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!row) throw forbidden(SHARE_SESSION_INVALID, REASONS.grantLinkInvalid)
  const { session_id: sessionId, session_expires_at: sessionEnd, ...grant } = row
  if (grantEnded(grant, now)) throw forbidden(GRANT_MESSAGES.ended, REASONS.grantEnded)
  if (sessionEnd <= now.toISOString())
    throw forbidden(SHARE_SESSION_INVALID, REASONS.grantLinkInvalid)
  return {
    grant,
    caller: { kind: 'share', grantId: grant.id, sessionId },
    viewerUserId: null,
    watermark: SHARE_VISITOR,
  }
}

/**
 * Who reads `/shared/:grantId…`: the link visitor of that grant (yxs_ token) or its grantee
 * account (login token). Another grant's visitor, another account: 404 授权不存在或已删除. The
 * grant ended: 403 授权已失效.
 */
export async function grantReader(
  db: DB,
  cipher: FieldCipher,
  token: string | undefined,
  grantId: string,
  now: Date,
): Promise<GrantReader> {
  if (!token) throw unauthorized('请先登录')
  if (token.startsWith(SHARE_TOKEN_PREFIX)) {
    const reader = await shareSessionReader(db, token, now)
    if (reader.grant.id !== grantId) throw notFound(GRANT_MESSAGES.notFound)
    return reader
  }
  const found = await findSessionByAccessToken(db, token, now)
  if (!found) throw unauthorized()
  const grant = await db
    .selectFrom('grants')
    .innerJoin('users', 'users.id', 'grants.person_user_id')
    .selectAll('grants')
    .where('grants.id', '=', grantId)
    .where('grants.audience', '=', 'account')
    .where('grants.grantee_user_id', '=', found.user.id)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!grant) throw notFound(GRANT_MESSAGES.notFound)
  if (grantEnded(grant, now)) throw forbidden(GRANT_MESSAGES.ended, REASONS.grantEnded)
  const label = (await personLabels(db, cipher, [found.user.id])).get(found.user.id)
  return {
    grant,
    caller: { kind: 'share', grantId: grant.id, sessionId: found.sessionId },
    viewerUserId: found.user.id,
    watermark: sharerText(label),
  }
}

/** The exam's detail through a grant covering its images; the report brief only if covered too. */
export async function sharedExam(
  db: DB,
  cipher: FieldCipher,
  reader: GrantReader,
  examId: string,
): Promise<ExamDetail> {
  const covered = await db
    .selectFrom('grant_records')
    .select(['kind', 'record_id', 'private'])
    .where('grant_id', '=', reader.grant.id)
    .where('exam_id', '=', examId)
    .execute()
  if (!covered.some((r) => r.kind === 'exam')) throw notFound(EXAM_NOT_FOUND)
  const detail = await examDetail(
    db,
    cipher,
    { userId: reader.grant.person_user_id, caller: reader.caller, identity: undefined },
    examId,
  )
  const reportRecord =
    detail.report === null
      ? undefined
      : covered.find((r) => r.kind === 'report' && r.record_id === detail.report!.id)
  const reportCovered =
    reportRecord !== undefined &&
    !(await hiddenSinceGranted(db, reader.grant, examId, Number(reportRecord.private) === 1))
  // The owner's own marks (收藏, notes) are not the holder's business; nor is the birth date
  // (8 of the ID number's 18 digits), which DICOMweb through a grant leaves out too.
  return {
    ...detail,
    patientBirthDate: null,
    archived: false,
    notes: null,
    report: reportCovered ? detail.report : null,
  }
}

/** A report named in the grant, read-only: never marks anything read for the owner. */
export async function sharedReport(
  db: DB,
  cipher: FieldCipher,
  reader: GrantReader,
  reportId: string,
): Promise<{ detail: ReportDetail; examId: string }> {
  const row = await db
    .selectFrom('grant_records')
    .innerJoin('reports', 'reports.id', 'grant_records.record_id')
    .innerJoin('exams', 'exams.id', 'reports.exam_id')
    .innerJoin('hospitals', 'hospitals.id', 'reports.hospital_id')
    .selectAll('reports')
    .select(['grant_records.private as shared_private', 'hospitals.name as hospital_name'])
    .where('grant_records.grant_id', '=', reader.grant.id)
    .where('grant_records.kind', '=', 'report')
    .where('grant_records.record_id', '=', reportId)
    .executeTakeFirst()
  if (!row) throw notFound(REPORT_NOT_VISIBLE)
  if (await hiddenSinceGranted(db, reader.grant, row.exam_id, Number(row.shared_private) === 1)) {
    throw notFound(REPORT_NOT_VISIBLE)
  }
  const exam = await db
    .selectFrom('exams')
    .selectAll()
    .where('id', '=', row.exam_id)
    .executeTakeFirstOrThrow()
  // The grantee reads what the owner reads; only the marks are the grant's.
  const detail = await toReportDetail(db, cipher, row, exam, {
    owner: await recordOwner(db, cipher, reader.caller, exam),
    hospital: { id: row.hospital_id, name: row.hospital_name },
    read: true,
    private: Number(row.shared_private) === 1,
    archived: false,
    locked: false,
  })
  return { detail, examId: row.exam_id }
}
