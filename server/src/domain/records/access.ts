import { type ExpressionBuilder, sql } from 'kysely'
import { FAMILY_MESSAGES } from '@contract/main/family'
import { GRANT_MESSAGES } from '@contract/main/grants'
import { REASONS } from '@contract/reasons'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { Database, ExamsTable } from '../../db/schema'
import { forbidden, notFound } from '../../http/errors'
import type { StoredIdCard } from '../identity'

/*
 * The one authorisation check for images and reports. Every route that returns an exam, a report,
 * metadata, frames, thumbnails or files asks here, and nowhere else:
 *
 * - a patient sees their own uploads, the hospital exams they claimed (影像查询 / scanned code, each
 *   proved by an SMS code to the phone the hospital recorded), and the hospital exams whose pushed
 *   identity (keyed digest of the resident ID number AND of the name) equals the ID card bound to
 *   their account;
 * - a hospital key sees its own hospital's exams, never a patient's uploads;
 * - nobody else sees anything: an exam outside the caller's reach is answered 404 (not 403), so its
 *   existence is not confirmed to a stranger.
 *
 * Issue 9 (grants, family members) adds its cases here:
 * - family (亲情卡): a user sees the own records of every member they actively manage
 *   (family_links with ended_at null, judged at every request); the lists show one person at a
 *   time (personInReach), single records are found through findFamilyExam / findFamilyStudyExams.
 */

export type RecordsCaller =
  | { kind: 'user'; userId: string }
  | { kind: 'hospital'; hospitalId: string }
  /**
   * Reading through one grant (issue 9): a link visitor's `yxs_` session, or a grantee on the
   * /shared routes. Sees the grant's exams only; whether the grant is still active is judged
   * before (records-caller.ts, domain/sharing) on the server clock of each request.
   */
  | { kind: 'share'; grantId: string; sessionId: string }

/** The pushed identity in the form it is stored: keyed digests only. */
export interface PatientIdentity {
  patientKey: string
  nameHash: string
}

export const EXAM_NOT_FOUND = '检查不存在或您无权查看'

/**
 * A name as hospitals and ID cards spell it, reduced to what identifies: DICOM PN separators
 * (`张^三`, `张^三^^^`), spaces and the middle dots of minority names are dropped, full-width forms
 * folded (NFKC), Latin letters lower-cased.
 */
export function normalisePatientName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[\^\s·•・.]/g, '')
    .toLowerCase()
}

/** Resident ID numbers with a lower-case x are the same number. */
export function normaliseIdNumber(idNumber: string): string {
  return idNumber.trim().toUpperCase()
}

/** The keyed digest of a name as hospitals and cards spell it (normalisePatientName). */
export function nameDigest(cipher: FieldCipher, name: string): string {
  return cipher.digest(`name\u0000${normalisePatientName(name)}`)
}

/**
 * Keyed digests of a pushed identity. patientKey is the same digest as id_cards.number_hash, so an
 * account's bound card matches with an indexed equality and no decryption.
 */
export function identityDigests(
  cipher: FieldCipher,
  idNumber: string,
  name: string,
): PatientIdentity {
  return {
    patientKey: cipher.digest(normaliseIdNumber(idNumber)),
    nameHash: nameDigest(cipher, name),
  }
}

/** The identity of the card bound to the account, or undefined without one. */
export async function boundIdentity(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<PatientIdentity | undefined> {
  const card = await db
    .selectFrom('id_cards')
    .select(['number_hash as numberHash', 'holder_encrypted as holderEncrypted'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  return cardIdentity(cipher, card ?? null)
}

/** The identity of a bound card as stored (read with the session, or by boundIdentity). */
export function cardIdentity(
  cipher: FieldCipher,
  card: StoredIdCard | null,
): PatientIdentity | undefined {
  if (!card) return undefined
  return {
    patientKey: card.numberHash,
    nameHash: nameDigest(cipher, cipher.decrypt(card.holderEncrypted)),
  }
}

/**
 * The condition "this exam is visible to the caller", for `.where(visibleTo(caller, identity))` on
 * any query over `exams` (lists, counts, QIDO). `identity` is the user's boundIdentity (resolve it
 * once per request).
 */
export function visibleTo(caller: RecordsCaller, identity: PatientIdentity | undefined) {
  return (eb: ExpressionBuilder<Database, 'exams'>) => {
    if (caller.kind === 'share') return coveredByGrant(caller.grantId)(eb)
    if (caller.kind === 'hospital') {
      return eb.and([
        eb('exams.source', '=', 'hospital'),
        eb('exams.hospital_id', '=', caller.hospitalId),
      ])
    }
    const ways = [
      eb.and([eb('exams.source', '=', 'upload'), eb('exams.owner_user_id', '=', caller.userId)]),
      eb.and([
        eb('exams.source', '=', 'hospital'),
        eb(
          'exams.id',
          'in',
          eb
            .selectFrom('exam_claims')
            .select('exam_claims.exam_id')
            .where('exam_claims.user_id', '=', caller.userId),
        ),
      ]),
    ]
    if (identity) {
      ways.push(
        eb.and([
          eb('exams.source', '=', 'hospital'),
          eb('exams.patient_key', '=', identity.patientKey),
          eb('exams.patient_name_hash', '=', identity.nameHash),
        ]),
      )
    }
    return eb.or(ways)
  }
}

/**
 * One exam by our id, if the caller may see it; otherwise 404 EXAM_NOT_FOUND (the same answer as
 * for an id that does not exist).
 */
export async function findVisibleExam(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  examId: string,
): Promise<ExamsTable> {
  const identity =
    caller.kind === 'user' ? await boundIdentity(db, cipher, caller.userId) : undefined
  return (await reachExam(db, cipher, caller, identity, examId)).exam
}

/** An exam the caller may see, and whose it is to them (recordOwner names it from this). */
export interface ReachedExam {
  exam: ExamsTable
  /** Set when the exam is not the caller's own but a managed family member's (their user id). */
  memberId?: string
}

/**
 * findVisibleExam for a caller whose identity is already resolved (patientScope has it), which
 * also says how the exam was reached: a request that shows the owner needs no second check.
 */
export async function reachExam(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  identity: PatientIdentity | undefined,
  examId: string,
): Promise<ReachedExam> {
  const exam = await db
    .selectFrom('exams')
    .selectAll()
    .where('exams.id', '=', examId)
    .where(visibleTo(caller, identity))
    .executeTakeFirst()
  if (exam) return { exam }
  if (caller.kind === 'user') {
    const reached = await findFamilyExam(db, cipher, caller.userId, examId)
    if (reached) return { exam: reached.exam, memberId: reached.personId }
  }
  throw notFound(EXAM_NOT_FOUND)
}

/** Same check by StudyInstanceUID (DICOMweb paths name studies by UID). */
export async function findVisibleStudy(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  studyUid: string,
): Promise<ExamsTable[]> {
  const identity =
    caller.kind === 'user' ? await boundIdentity(db, cipher, caller.userId) : undefined
  // Several exams may carry one UID (the same study pushed by a hospital and uploaded by the
  // patient): the caller gets every one they may see, none they may not.
  const own = await db
    .selectFrom('exams')
    .selectAll()
    .where('exams.study_uid', '=', studyUid)
    .where(visibleTo(caller, identity))
    .execute()
  if (own.length > 0 || caller.kind !== 'user') return own
  return findFamilyStudyExams(db, cipher, caller.userId, studyUid)
}

// ---------------------------------------------------------------------------------------------------
// Family reach (亲情卡, issue 9). A member is a person (users row) the user manages through an active
// family_links row; what the manager may see of them is exactly what visibleTo gives the member
// themselves. Ending the link (or deleting either account) ends the reach at the next request.

/** An actively managed member and the identity of the card bound to them. */
export interface ManagedPerson {
  personId: string
  kind: 'child' | 'adult'
  identity: PatientIdentity | undefined
}

/** The people `userId` manages now, each with their bound identity (one query). */
export async function managedPeople(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<ManagedPerson[]> {
  const rows = await db
    .selectFrom('family_links')
    .innerJoin('users', 'users.id', 'family_links.member_user_id')
    .leftJoin('id_cards', 'id_cards.user_id', 'family_links.member_user_id')
    .select([
      'family_links.member_user_id',
      'family_links.kind',
      'id_cards.number_hash',
      'id_cards.holder_encrypted',
    ])
    .where('family_links.manager_user_id', '=', userId)
    .where('family_links.ended_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .execute()
  return rows.map((row) => ({
    personId: row.member_user_id,
    kind: row.kind,
    identity:
      row.number_hash && row.holder_encrypted
        ? {
            patientKey: row.number_hash,
            nameHash: nameDigest(cipher, cipher.decrypt(row.holder_encrypted)),
          }
        : undefined,
  }))
}

/**
 * Whether `userId` may look at `personId`'s own records (the lists' 当前就诊人): themselves, or a
 * member they actively manage. Anyone else: 403 FAMILY_MESSAGES.notManaged.
 */
export async function assertPersonInReach(db: DB, userId: string, personId: string): Promise<void> {
  if (personId === userId) return
  const link = await db
    .selectFrom('family_links')
    .innerJoin('users', 'users.id', 'family_links.member_user_id')
    .select('family_links.id')
    .where('family_links.manager_user_id', '=', userId)
    .where('family_links.member_user_id', '=', personId)
    .where('family_links.ended_at', 'is', null)
    .where('users.deleted_at', 'is', null)
    .executeTakeFirst()
  if (!link) throw forbidden(FAMILY_MESSAGES.notManaged, REASONS.familyNotManaged)
}

/** "The exam is one of these members' own", for `.where(...)` on exams. */
function visibleToAnyOf(people: readonly ManagedPerson[]) {
  return (eb: ExpressionBuilder<Database, 'exams'>) =>
    eb.or(
      people.map((person) =>
        visibleTo({ kind: 'user', userId: person.personId }, person.identity)(eb),
      ),
    )
}

/** Which member an exam (found through visibleToAnyOf) belongs to. */
async function ownerAmong(
  db: DB,
  exam: ExamsTable,
  people: readonly ManagedPerson[],
): Promise<string> {
  const byOwner = people.find((person) => person.personId === exam.owner_user_id)
  if (byOwner) return byOwner.personId
  const byIdentity = people.find(
    (person) =>
      person.identity?.patientKey === exam.patient_key &&
      person.identity?.nameHash === exam.patient_name_hash,
  )
  if (byIdentity) return byIdentity.personId
  const claim = await db
    .selectFrom('exam_claims')
    .select('user_id')
    .where('exam_id', '=', exam.id)
    .where(
      'user_id',
      'in',
      people.map((person) => person.personId),
    )
    .executeTakeFirst()
  return claim?.user_id ?? people[0]!.personId
}

/** An exam of a member `userId` manages now, and whose it is; undefined when none has it. */
export async function findFamilyExam(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  examId: string,
): Promise<{ exam: ExamsTable; personId: string } | undefined> {
  const people = await managedPeople(db, cipher, userId)
  if (people.length === 0) return undefined
  const exam = await db
    .selectFrom('exams')
    .selectAll()
    .where('exams.id', '=', examId)
    .where(visibleToAnyOf(people))
    .executeTakeFirst()
  if (!exam) return undefined
  return { exam, personId: await ownerAmong(db, exam, people) }
}

/** The exams of a study that are a managed member's own (DICOMweb paths name studies by UID). */
export async function findFamilyStudyExams(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  studyUid: string,
): Promise<ExamsTable[]> {
  const people = await managedPeople(db, cipher, userId)
  if (people.length === 0) return []
  return db
    .selectFrom('exams')
    .selectAll()
    .where('exams.study_uid', '=', studyUid)
    .where(visibleToAnyOf(people))
    .execute()
}

/**
 * Whether an adult member the user manages marked this exam's report private (设为隐私). The member's
 * unlock proves the member, not the manager, so such a report stays locked to the manager.
 */
export async function privateToMember(db: DB, userId: string, examId: string): Promise<boolean> {
  const row = await db
    .selectFrom('exam_user_states')
    .innerJoin('family_links', 'family_links.member_user_id', 'exam_user_states.user_id')
    .select('exam_user_states.exam_id')
    .where('family_links.manager_user_id', '=', userId)
    .where('family_links.ended_at', 'is', null)
    .where('family_links.kind', '=', 'adult')
    .where('exam_user_states.exam_id', '=', examId)
    .where('exam_user_states.report_private', '=', 1)
    .executeTakeFirst()
  return !!row
}

// ---------------------------------------------------------------------------------------------------
// Grant reach (授权, issue 9). A grant covers an exam's images (kind 'exam') or a report (kind
// 'report', read through /shared only). A grantee account reads a covered exam's images on the
// DICOMweb paths with its own token while the grant is active; a grant that has ended is answered
// 403 授权已失效 to its grantee (who knew of the record), 404 to everyone else as before.

/** "The exam's images are covered by this grant", for `.where(...)` on exams. */
function coveredByGrant(grantId: string) {
  return (eb: ExpressionBuilder<Database, 'exams'>) =>
    eb(
      'exams.id',
      'in',
      eb
        .selectFrom('grant_records')
        .select('grant_records.exam_id')
        .where('grant_records.grant_id', '=', grantId)
        .where('grant_records.kind', '=', 'exam'),
    )
}

/** The exams of a study a caller reaches, and the grant they are read through (null: own, family). */
export interface StudyReach {
  exams: ExamsTable[]
  grantId: string | null
  /**
   * The caller reads their own (or a member's) copy of a study that someone's active account grant
   * to them also covers: the read is still a view of the granted exams, so the owner's 谁看过 shows
   * it (the grantee learnt of the study through the grant, whichever copy they open). Null otherwise.
   */
  alsoGranted: { grantId: string; examIds: string[] } | null
}

/** The account grants to `userId` that cover a study, newest first, with the exams they cover. */
async function grantsCovering(db: DB, userId: string, studyUid: string) {
  return db
    .selectFrom('grant_records')
    .innerJoin('grants', 'grants.id', 'grant_records.grant_id')
    .innerJoin('exams', 'exams.id', 'grant_records.exam_id')
    .selectAll('exams')
    .select([
      'grants.id as grant_id',
      'grants.revoked_at as grant_revoked_at',
      'grants.expires_at as grant_expires_at',
    ])
    .where('grants.grantee_user_id', '=', userId)
    .where('grants.audience', '=', 'account')
    .where('grant_records.kind', '=', 'exam')
    .where('exams.study_uid', '=', studyUid)
    .orderBy('grants.created_at', 'desc')
    .orderBy('grants.id', 'desc')
    .execute()
}

/**
 * findVisibleStudy, then (for a signed-in user who has none of the study as their own or a
 * member's) the exams covered by an active account grant to them at `now`. A grantee whose grants
 * on the study have all ended gets 403 GRANT_MESSAGES.ended; nobody learns anything else.
 */
export async function reachStudy(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  studyUid: string,
  now: Date,
): Promise<StudyReach> {
  const exams = await findVisibleStudy(db, cipher, caller, studyUid)
  if (caller.kind === 'share') return { exams, grantId: caller.grantId, alsoGranted: null }
  if (caller.kind !== 'user') return { exams, grantId: null, alsoGranted: null }
  const at = now.toISOString()
  const covered = await grantsCovering(db, caller.userId, studyUid)
  const active = covered.filter((row) => row.grant_revoked_at === null && row.grant_expires_at > at)
  const grantId = active[0]?.grant_id
  const ofNewest = [
    ...new Map(
      active
        .filter((row) => row.grant_id === grantId)
        .map((row) => {
          const { grant_id: _g, grant_revoked_at: _r, grant_expires_at: _e, ...exam } = row
          return [exam.id, exam] as const
        }),
    ).values(),
  ]
  if (exams.length > 0) {
    return {
      exams,
      grantId: null,
      alsoGranted: grantId ? { grantId, examIds: ofNewest.map((exam) => exam.id) } : null,
    }
  }
  if (covered.length === 0) return { exams: [], grantId: null, alsoGranted: null }
  if (!grantId) throw forbidden(GRANT_MESSAGES.ended, REASONS.grantEnded)
  return { exams: ofNewest, grantId, alsoGranted: null }
}

// ---------------------------------------------------------------------------------------------------
// Searches (QIDO-RS). A search answers what the caller could retrieve one by one: their own, their
// actively managed members' own, and, for a signed-in grantee, the exams of account grants active at
// the moment of the search; a link visitor its grant's exams (visibleTo's share case). Never an
// ended grant's.

export interface SearchReach {
  caller: RecordsCaller
  identity: PatientIdentity | undefined
  people: readonly ManagedPerson[]
  /** The server's clock, ISO: grants are judged at the search. */
  at: string
}

export async function searchReach(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  now: Date,
): Promise<SearchReach> {
  if (caller.kind !== 'user')
    return { caller, identity: undefined, people: [], at: now.toISOString() }
  const [identity, people] = await Promise.all([
    boundIdentity(db, cipher, caller.userId),
    managedPeople(db, cipher, caller.userId),
  ])
  return { caller, identity, people, at: now.toISOString() }
}

/**
 * The part of reachableBy that is not a grant: the caller's own exams and their managed members'.
 * Rows built from any other exam show the patient as a grant does (sharing/dicom-identity.ts). A
 * link visitor reaches everything through their grant: nothing.
 */
export function reachableDirectly(reach: SearchReach) {
  return (eb: ExpressionBuilder<Database, 'exams'>) => {
    if (reach.caller.kind === 'share') return sql<boolean>`1 = 0`
    const own = visibleTo(reach.caller, reach.identity)(eb)
    if (reach.caller.kind !== 'user' || reach.people.length === 0) return own
    return eb.or([own, visibleToAnyOf(reach.people)(eb)])
  }
}

/** The condition "the caller could retrieve this exam", for `.where(...)` on exams in searches. */
export function reachableBy(reach: SearchReach) {
  return (eb: ExpressionBuilder<Database, 'exams'>) => {
    const own = visibleTo(reach.caller, reach.identity)(eb)
    if (reach.caller.kind !== 'user') return own
    const ways = [own]
    if (reach.people.length > 0) ways.push(visibleToAnyOf(reach.people)(eb))
    ways.push(
      eb(
        'exams.id',
        'in',
        eb
          .selectFrom('grant_records')
          .innerJoin('grants', 'grants.id', 'grant_records.grant_id')
          .select('grant_records.exam_id')
          .where('grants.grantee_user_id', '=', reach.caller.userId)
          .where('grants.audience', '=', 'account')
          .where('grant_records.kind', '=', 'exam')
          .where('grants.revoked_at', 'is', null)
          .where('grants.expires_at', '>', reach.at),
      ),
    )
    return eb.or(ways)
  }
}
