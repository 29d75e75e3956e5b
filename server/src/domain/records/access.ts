import type { ExpressionBuilder } from 'kysely'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { Database, ExamsTable } from '../../db/schema'
import { notFound } from '../../http/errors'

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
 * Issue 9 (grants, family members) adds its cases here.
 */

export type RecordsCaller =
  { kind: 'user'; userId: string } | { kind: 'hospital'; hospitalId: string }

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
    nameHash: cipher.digest(`name\u0000${normalisePatientName(name)}`),
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
    .select(['number_hash', 'holder_encrypted'])
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!card) return undefined
  return {
    patientKey: card.number_hash,
    nameHash: cipher.digest(
      `name\u0000${normalisePatientName(cipher.decrypt(card.holder_encrypted))}`,
    ),
  }
}

/**
 * The condition "this exam is visible to the caller", for `.where(visibleTo(caller, identity))` on
 * any query over `exams` (lists, counts, QIDO). `identity` is the user's boundIdentity (resolve it
 * once per request).
 */
export function visibleTo(caller: RecordsCaller, identity: PatientIdentity | undefined) {
  return (eb: ExpressionBuilder<Database, 'exams'>) => {
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
  const exam = await db
    .selectFrom('exams')
    .selectAll()
    .where('exams.id', '=', examId)
    .where(visibleTo(caller, identity))
    .executeTakeFirst()
  if (!exam) throw notFound(EXAM_NOT_FOUND)
  return exam
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
  return db
    .selectFrom('exams')
    .selectAll()
    .where('exams.study_uid', '=', studyUid)
    .where(visibleTo(caller, identity))
    .execute()
}
