import {
  CLAIM_NOT_FOUND,
  CLAIM_TICKET_TTL_SECONDS,
  type ClaimedExam,
  type ClaimStart,
} from '@contract/main/claims'
import { reportStatusLabel } from '@contract/main/records'
import type { FilmExam, ScanResult } from '@contract/scan/codes'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExamsTable } from '../../db/schema'
import { badRequest, notFound, tooManyRequests } from '../../http/errors'
import { consumeSmsCode, issueSmsCode, type SmsProvider } from '../identity'
import { keyedHash, DAY, describeWait, HOUR, maskMobile, maskName } from '../identity'
import { clientTag, type LimitRule, releaseAll, reserveAll } from '../limits'
import { boundIdentity, EXAM_NOT_FOUND, normalisePatientName, visibleTo } from '../records'
import {
  claimTicket,
  type ClaimVia,
  examOfFilmCode,
  examQrCode,
  filmCodeIn,
  filmCodeOf,
  filmCodeUrl,
  openClaimTicket,
  openExamQrCode,
} from './codes'

/*
 * 影像查询 and film-bag claims (contract/main/claims.ts, contract/scan/codes.ts). A hospital exam
 * joins an account through exam_claims once the person proves the phone the hospital recorded with
 * an SMS code (purpose `claim`, every limit of the SMS domain applies); access.ts then shows it to
 * them like any other of their exams.
 */

export interface ClaimsContext {
  db: DB
  cipher: FieldCipher
  now: Date
}

/**
 * Failed lookups, reserved before the look-up and given back when it matched (a match is not a
 * guess). Three keys, so that no single way of guessing goes far:
 * - per account: 10 an hour, 30 a day (one person mistyping a slip needs a few);
 * - per client network: 30 an hour, whatever the accounts (many accounts from one place);
 * - per exam number of a hospital: 20 a day from everyone together. Names are guessable (common
 *   surnames and given names), so the exam number, printed on the slip, must not become a name
 *   oracle to someone who learnt it. A stranger filling this blocks the owner's 影像查询 for that
 *   number for a day at worst; the film-bag code and the bound ID card still work.
 */
export const CLAIM_LIMITS = {
  failedPerUserPerHour: 10,
  failedPerUserPerDay: 30,
  failedPerClientPerHour: 30,
  failedPerExamNumberPerDay: 20,
  ticketTtlMs: CLAIM_TICKET_TTL_SECONDS * 1000,
} as const

function lookupRules(userId: string, ip: string, hospitalId: string, examNumber: string) {
  const number = keyedHash('claim-exam-number', `${hospitalId}\u0000${examNumber}`)
  return {
    userHour: {
      key: `claim-lookup-user-h:${userId}`,
      limit: CLAIM_LIMITS.failedPerUserPerHour,
      windowMs: HOUR,
    },
    userDay: {
      key: `claim-lookup-user-d:${userId}`,
      limit: CLAIM_LIMITS.failedPerUserPerDay,
      windowMs: DAY,
    },
    client: {
      key: `claim-lookup-ip:${clientTag(ip)}`,
      limit: CLAIM_LIMITS.failedPerClientPerHour,
      windowMs: HOUR,
    },
    examNumber: {
      key: `claim-lookup-exam:${number}`,
      limit: CLAIM_LIMITS.failedPerExamNumberPerDay,
      windowMs: DAY,
    },
  } satisfies Record<string, LimitRule>
}

const RETRY_LOOKUP = '请重新查询'

function nameDigest(cipher: FieldCipher, name: string): string {
  return cipher.digest(`name\u0000${normalisePatientName(name)}`)
}

async function isVisibleTo(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  examId: string,
): Promise<boolean> {
  const identity = await boundIdentity(db, cipher, userId)
  const row = await db
    .selectFrom('exams')
    .select('id')
    .where('exams.id', '=', examId)
    .where(visibleTo({ kind: 'user', userId }, identity))
    .executeTakeFirst()
  return row !== undefined
}

/**
 * 影像查询: hospital + 检查号 + 姓名. A match with a recorded phone answers a ticket and the masked
 * phone; anything else answers CLAIM_NOT_FOUND, the same words whatever did not match.
 */
export async function lookupExamClaim(
  ctx: ClaimsContext,
  input: { userId: string; ip: string; hospitalId: string; examNumber: string; name: string },
): Promise<ClaimStart> {
  const { db, cipher, now } = ctx
  const examNumber = input.examNumber.trim()
  const rules = lookupRules(input.userId, input.ip, input.hospitalId, examNumber)
  const taken = await reserveAll(
    db,
    [rules.userHour, rules.userDay, rules.client, rules.examNumber],
    now,
  )
  if (!taken.ok) {
    throw tooManyRequests(
      `查询次数过多，请 ${describeWait(taken.retryAfterMs)}后再试，或扫描胶片袋上的二维码`,
    )
  }
  const nameHash = nameDigest(cipher, input.name)
  const candidates = await db
    .selectFrom('exams')
    .select(['id', 'patient_name_hash', 'patient_phone_encrypted'])
    .where('source', '=', 'hospital')
    .where('hospital_id', '=', input.hospitalId)
    .where('accession_number', '=', examNumber)
    .execute()
  const matching = candidates.filter((exam) => exam.patient_name_hash === nameHash)
  for (const exam of matching) {
    if (await isVisibleTo(db, cipher, input.userId, exam.id)) {
      await releaseAll(db, taken.slots)
      return {
        ticket: claimTicket(
          { examId: exam.id, userId: input.userId, via: 'query' },
          now,
          CLAIM_LIMITS.ticketTtlMs,
        ),
        mobileMasked: exam.patient_phone_encrypted
          ? maskMobile(cipher.decrypt(exam.patient_phone_encrypted))
          : '',
        alreadyMine: true,
        examId: exam.id,
      }
    }
  }
  const claimable = matching.find((exam) => exam.patient_phone_encrypted !== null)
  // No exam, another name, or no phone to prove: one answer, and the try stays counted.
  if (!claimable?.patient_phone_encrypted) throw notFound(CLAIM_NOT_FOUND)
  await releaseAll(db, taken.slots)
  return {
    ticket: claimTicket(
      { examId: claimable.id, userId: input.userId, via: 'query' },
      now,
      CLAIM_LIMITS.ticketTtlMs,
    ),
    mobileMasked: maskMobile(cipher.decrypt(claimable.patient_phone_encrypted)),
    alreadyMine: false,
    examId: null,
  }
}

/** The exam and its recorded phone behind a ticket of this account, or a 400 to start again. */
async function ticketExam(
  ctx: ClaimsContext,
  userId: string,
  ticket: string,
): Promise<{ exam: Pick<ExamsTable, 'id' | 'hospital_id'>; phone: string; via: ClaimVia }> {
  const opened = openClaimTicket(ticket, userId, ctx.now)
  if (!opened.ok) {
    throw badRequest(opened.reason === 'expired' ? '查询已过期，请重新查询' : RETRY_LOOKUP)
  }
  const exam = await ctx.db
    .selectFrom('exams')
    .select(['id', 'hospital_id', 'patient_phone_encrypted'])
    .where('id', '=', opened.examId)
    .where('source', '=', 'hospital')
    .executeTakeFirst()
  if (!exam?.patient_phone_encrypted) throw badRequest(RETRY_LOOKUP)
  return { exam, phone: ctx.cipher.decrypt(exam.patient_phone_encrypted), via: opened.via }
}

export async function sendClaimCode(
  ctx: ClaimsContext & { sms: SmsProvider },
  input: { userId: string; ip: string; ticket: string },
): Promise<{ mobileMasked: string; cooldownSeconds: number; expiresInSeconds: number }> {
  const { phone } = await ticketExam(ctx, input.userId, input.ticket)
  const sent = await issueSmsCode(ctx.db, ctx.sms, {
    mobile: phone,
    purpose: 'claim',
    ip: input.ip,
    now: ctx.now,
  })
  return { mobileMasked: maskMobile(phone), ...sent }
}

async function latestReportId(db: DB, examId: string): Promise<string | null> {
  const report = await db
    .selectFrom('reports')
    .select('id')
    .where('exam_id', '=', examId)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  return report?.id ?? null
}

async function hospitalRef(
  db: DB,
  hospitalId: string | null,
): Promise<{ id: string; name: string }> {
  const hospital = hospitalId
    ? await db
        .selectFrom('hospitals')
        .select(['id', 'name'])
        .where('id', '=', hospitalId)
        .executeTakeFirst()
    : undefined
  if (!hospital) throw notFound(EXAM_NOT_FOUND)
  return hospital
}

/**
 * The SMS code to the recorded phone proves the claim: the exam joins the account (a claim made
 * before is kept; one removed from the list earlier comes back to it).
 */
export async function confirmClaim(
  ctx: ClaimsContext,
  input: { userId: string; ip: string; ticket: string; code: string },
): Promise<ClaimedExam> {
  const { db, now } = ctx
  const { exam, phone, via } = await ticketExam(ctx, input.userId, input.ticket)
  await consumeSmsCode(db, {
    mobile: phone,
    purpose: 'claim',
    code: input.code,
    now,
    ip: input.ip,
  })
  const at = now.toISOString()
  await db
    .insertInto('exam_claims')
    .values({ user_id: input.userId, exam_id: exam.id, via, created_at: at })
    .onConflict((oc) => oc.columns(['user_id', 'exam_id']).doNothing())
    .execute()
  await db
    .updateTable('exam_user_states')
    .set({ hidden_at: null, updated_at: at })
    .where('user_id', '=', input.userId)
    .where('exam_id', '=', exam.id)
    .where('hidden_at', 'is not', null)
    .execute()
  return {
    examId: exam.id,
    hospital: await hospitalRef(db, exam.hospital_id),
    reportId: await latestReportId(db, exam.id),
    via,
  }
}

// ---------------------------------------------------------------------------------------------------
// Film-bag codes and the scan service

export const FILM_CODE_INVALID = '二维码无效，请扫描医院胶片袋或报告单上的二维码'

/** A hospital's code for one of its exams, by StudyInstanceUID or 检查号. */
export async function issueFilmCode(
  db: DB,
  input: {
    hospitalId: string
    origin: string
    studyInstanceUid?: string | undefined
    accessionNumber?: string | undefined
  },
): Promise<{
  code: string
  url: string
  studyInstanceUid: string | null
  accessionNumber: string | null
}> {
  if (!input.studyInstanceUid && !input.accessionNumber) {
    throw badRequest('请提供 studyInstanceUid 或 accessionNumber')
  }
  let query = db
    .selectFrom('exams')
    .select(['id', 'study_uid', 'accession_number'])
    .where('source', '=', 'hospital')
    .where('hospital_id', '=', input.hospitalId)
  if (input.studyInstanceUid) query = query.where('study_uid', '=', input.studyInstanceUid)
  if (input.accessionNumber) query = query.where('accession_number', '=', input.accessionNumber)
  const exams = await query.limit(2).execute()
  if (exams.length === 0) throw notFound('本院没有该检查（请先推送影像或报告）')
  if (exams.length > 1) throw badRequest('该检查号对应多次检查，请改用 studyInstanceUid')
  const exam = exams[0]!
  const code = filmCodeOf(exam.id)
  return {
    code,
    url: filmCodeUrl(input.origin, code),
    studyInstanceUid: exam.study_uid,
    accessionNumber: exam.accession_number,
  }
}

function modalitiesOf(exam: Pick<ExamsTable, 'modalities'>): string[] {
  return exam.modalities
    .split(',')
    .map((modality) => modality.trim())
    .filter(Boolean)
}

function titleOf(exam: Pick<ExamsTable, 'description' | 'modalities'>): string {
  if (exam.description?.trim()) return exam.description.trim()
  const modalities = modalitiesOf(exam)
  return modalities.length > 0 ? `${modalities.join('/')} 检查` : '影像检查'
}

const FINAL_STATUSES = ['final', 'amended', 'corrected', 'appended']

/** What the code shows, who issued it, and how the caller can claim it. */
async function describeFilmExam(
  ctx: ClaimsContext,
  userId: string,
  code: string,
): Promise<ScanResult> {
  const { db, cipher, now } = ctx
  const examId = examOfFilmCode(code)
  if (!examId) throw badRequest(FILM_CODE_INVALID)
  const exam = await db
    .selectFrom('exams')
    .selectAll()
    .where('id', '=', examId)
    .where('source', '=', 'hospital')
    .executeTakeFirst()
  // A signed code of an exam the hospital has since removed.
  if (!exam) throw notFound('该检查已不存在，请联系开具的医院')
  const hospital = await hospitalRef(db, exam.hospital_id)
  const report = await db
    .selectFrom('reports')
    .select(['id', 'status'])
    .where('exam_id', '=', exam.id)
    .orderBy('updated_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  const summary: FilmExam = {
    hospital,
    studyDate: exam.study_date,
    modalities: modalitiesOf(exam),
    title: titleOf(exam),
    patientNameMasked: exam.patient_name_encrypted
      ? maskName(cipher.decrypt(exam.patient_name_encrypted))
      : null,
    hasReport: report !== undefined,
    reportStatusLabel: report ? reportStatusLabel(report.status) : null,
  }
  if (await isVisibleTo(db, cipher, userId, exam.id)) {
    return {
      code,
      exam: summary,
      mine: true,
      examId: exam.id,
      reportId: report?.id ?? null,
      ticket: null,
      mobileMasked: null,
    }
  }
  const phone = exam.patient_phone_encrypted ? cipher.decrypt(exam.patient_phone_encrypted) : null
  return {
    code,
    exam: summary,
    mine: false,
    examId: null,
    reportId: null,
    ticket: phone
      ? claimTicket({ examId: exam.id, userId, via: 'scan' }, now, CLAIM_LIMITS.ticketTtlMs)
      : null,
    mobileMasked: phone ? maskMobile(phone) : null,
  }
}

/** scan QR code: the film-bag link or bare code the app's scanner (or a camera) read. */
export async function scanFilmCode(
  ctx: ClaimsContext,
  input: { userId: string; content: string },
): Promise<ScanResult> {
  const code = filmCodeIn(input.content)
  if (!code) throw badRequest(FILM_CODE_INVALID)
  return describeFilmExam(ctx, input.userId, code)
}

/** report info: the same answer for a code the page already holds (detail2 opened from a link). */
export function filmReportInfo(
  ctx: ClaimsContext,
  input: { userId: string; code: string },
): Promise<ScanResult> {
  return describeFilmExam(ctx, input.userId, input.code)
}

/** report count: the reports the hospital sent for the coded exam, and how many are final. */
export async function filmReportCount(
  db: DB,
  code: string,
): Promise<{ total: number; final: number }> {
  const examId = examOfFilmCode(code)
  if (!examId) throw badRequest(FILM_CODE_INVALID)
  const rows = await db
    .selectFrom('reports')
    .select('status')
    .where('exam_id', '=', examId)
    .execute()
  return {
    total: rows.length,
    final: rows.filter((row) => FINAL_STATUSES.includes(row.status)).length,
  }
}

/** room list: the hospital of a code (or named) and its departments. */
export async function hospitalOfRooms(
  db: DB,
  input: { hospitalId?: string | undefined; code?: string | undefined },
): Promise<string> {
  if (input.hospitalId) return input.hospitalId
  if (!input.code) throw badRequest('请选择医院')
  const examId = examOfFilmCode(input.code)
  if (!examId) throw badRequest(FILM_CODE_INVALID)
  const exam = await db
    .selectFrom('exams')
    .select('hospital_id')
    .where('id', '=', examId)
    .executeTakeFirst()
  if (!exam?.hospital_id) throw notFound('该检查已不存在，请联系开具的医院')
  return exam.hospital_id
}

// ---------------------------------------------------------------------------------------------------
// The owner's 5-minute exam QR code

export async function issueExamQr(
  ctx: ClaimsContext,
  input: { userId: string; examId: string },
): Promise<{ content: string; expiresAt: string; ttlSeconds: number }> {
  if (!(await isVisibleTo(ctx.db, ctx.cipher, input.userId, input.examId))) {
    throw notFound(EXAM_NOT_FOUND)
  }
  const code = examQrCode(input.examId, input.userId, ctx.now)
  return {
    ...code,
    ttlSeconds: Math.round((Date.parse(code.expiresAt) - ctx.now.getTime()) / 1000),
  }
}

/**
 * A hospital terminal reads a patient's code. The code must be live and its owner must still see the
 * exam; a hospital learns the study's identifiers only for its own exam (it could query those with
 * its key anyway), another hospital only what kind of exam the patient shows.
 */
export async function resolveExamQr(
  ctx: ClaimsContext,
  input: { hospitalId: string; content: string },
) {
  const opened = openExamQrCode(input.content, ctx.now)
  if (!opened.ok) {
    throw badRequest(
      opened.reason === 'expired' ? '二维码已过期，请患者刷新后重新出示' : '二维码无效',
    )
  }
  if (!(await isVisibleTo(ctx.db, ctx.cipher, opened.userId, opened.examId))) {
    throw badRequest('二维码无效')
  }
  const exam = await ctx.db
    .selectFrom('exams')
    .selectAll()
    .where('id', '=', opened.examId)
    .executeTakeFirstOrThrow()
  const own = exam.source === 'hospital' && exam.hospital_id === input.hospitalId
  const hospital =
    exam.source === 'hospital'
      ? await hospitalRef(ctx.db, exam.hospital_id)
      : { id: '', name: exam.hospital_text ?? '患者上传' }
  return {
    ownExam: own,
    studyInstanceUid: own ? exam.study_uid : null,
    accessionNumber: own ? exam.accession_number : null,
    hospital,
    studyDate: exam.study_date,
    modalities: modalitiesOf(exam),
    expiresAt: opened.expiresAt,
  }
}
