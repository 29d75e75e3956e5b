import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import {
  EXPERT_APPLICATION_STATUS_LABELS,
  EXPERT_FIELD_LABELS,
  EXPERT_MESSAGES,
  EXPERT_PHOTO_KIND_LABELS,
  EXPERT_PHOTOS_PATH,
  EXPERT_PHOTOS_PER_KIND,
  EXPERT_REQUIRED_PHOTO_KINDS,
  EXPERT_TITLE_LABELS,
  type ExpertApplication,
  type ExpertDraft,
  type ExpertPhotoKind,
  type ExpertTitle,
  PRACTICE_CATEGORY_LABELS,
  type PracticeCategory,
} from '@contract/main/experts'
import { HOSPITAL_REQUEST_MESSAGES } from '@contract/main/hospital-requests'
import { REASONS } from '@contract/reasons'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExpertApplicationPhotosTable, ExpertApplicationsTable } from '../../db/schema'
import { badRequest, conflict, notFound } from '../../http/errors'
import { cleanPhoto, type PhotoProblem } from '../../images'
import type { ObjectStore } from '../../storage/object-store'
import { isUniqueViolation } from '../identity'
import { findCurrentPolicy } from '../policies'
import { CONSENT_CHANNELS, writeConsent } from '../consents'
import { findRequest, ownRequestForApplication, toHospitalRequest } from './hospital-requests'

/*
 * The applicant's side of expert certification (README.md). Every change is one conditional UPDATE
 * on the row's status (and version), so a change that raced another one changes nothing and says so.
 */

export const EXPERT_PHOTO_URL = (id: string) => `${EXPERT_PHOTOS_PATH}/${id}`

/** The report-photo cleaner's refusals, said about a certificate photo. */
const PHOTO_WORDS: Record<PhotoProblem, string> = {
  type: '证书照片只支持 JPG 或 PNG 格式',
  'too-large': '单张照片不能超过 10 MB，请压缩后重试',
  'too-many-pixels': '照片尺寸过大，请缩小后重试',
  unreadable: '照片无法识别，请换一张重试',
  'too-small': '照片太小，请拍一张清晰的证书照片',
}

type Row = ExpertApplicationsTable
const OPEN = ['draft', 'pending'] as const

export function parseList(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value)
      ? value.filter((item): item is string => typeof item === 'string')
      : []
  } catch {
    return []
  }
}

export async function photosOf(db: DB, applicationId: string) {
  return db
    .selectFrom('expert_application_photos')
    .selectAll()
    .where('application_id', '=', applicationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute()
}

/** The application as its applicant (and, extended, an operator) sees it. */
export async function toApplication(
  db: DB,
  cipher: FieldCipher,
  row: Row,
): Promise<ExpertApplication> {
  const hospital = row.hospital_id
    ? await db
        .selectFrom('hospitals')
        .select('name')
        .where('id', '=', row.hospital_id)
        .executeTakeFirst()
    : undefined
  const photos = await photosOf(db, row.id)
  const request = row.hospital_request_id
    ? await findRequest(db, row.hospital_request_id)
    : undefined
  const title = row.title as ExpertTitle | null
  const category = row.practice_category as PracticeCategory | null
  return {
    id: row.id,
    status: row.status,
    statusLabel: EXPERT_APPLICATION_STATUS_LABELS[row.status],
    hospitalId: row.hospital_id,
    hospitalName: hospital?.name ?? null,
    hospitalRequest: request ? await toHospitalRequest(db, request) : null,
    department: row.department,
    title,
    titleLabel: title ? (EXPERT_TITLE_LABELS[title] ?? title) : null,
    practiceCertificateNo: row.practice_cert_encrypted
      ? cipher.decrypt(row.practice_cert_encrypted)
      : null,
    qualificationCertificateNo: row.qualification_cert_encrypted
      ? cipher.decrypt(row.qualification_cert_encrypted)
      : null,
    practiceCategory: category,
    practiceCategoryLabel: category ? (PRACTICE_CATEGORY_LABELS[category] ?? category) : null,
    practiceScope: row.practice_scope,
    specialities: parseList(row.specialities),
    introduction: row.introduction,
    photos: photos.map((photo) => ({
      id: photo.id,
      kind: photo.kind as ExpertPhotoKind,
      kindLabel: EXPERT_PHOTO_KIND_LABELS[photo.kind as ExpertPhotoKind] ?? photo.kind,
      path: EXPERT_PHOTO_URL(photo.id),
      width: Number(photo.width),
      height: Number(photo.height),
    })),
    rejectReason: row.reject_reason,
    agreementVersion: row.agreement_version,
    submittedAt: row.submitted_at,
    decidedAt: row.decided_at,
    updatedAt: row.updated_at,
  }
}

/**
 * The person's current application: the open one (at most one, by the partial unique index), else
 * the latest. Open first, because a new draft can share its millisecond with the one it follows.
 */
export async function latestApplication(db: DB, userId: string): Promise<Row | undefined> {
  return db
    .selectFrom('expert_applications')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy(sql`case when status in ('draft', 'pending') then 0 else 1 end`)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst()
}

export async function getMyApplication(
  db: DB,
  cipher: FieldCipher,
  userId: string,
): Promise<ExpertApplication | null> {
  const row = await latestApplication(db, userId)
  return row ? toApplication(db, cipher, row) : null
}

/**
 * The application the person may edit: their draft, or their rejected one (fixing it turns it back
 * into a draft). A pending one is locked (withdraw first). Otherwise (none yet, or the last one was
 * approved or withdrawn) a new draft, prefilled with the last one's fields so a certified expert
 * changing hospital only changes that; photos are not carried over (the new review needs current
 * ones). Two saves racing to create it meet at the partial unique index; the loser takes the winner's.
 */
async function editableApplication(db: DB, userId: string, now: Date): Promise<Row> {
  const latest = await latestApplication(db, userId)
  if (latest?.status === 'pending') throw conflict(EXPERT_MESSAGES.pendingLocked)
  if (latest && (latest.status === 'draft' || latest.status === 'rejected')) return latest
  const at = now.toISOString()
  const row: Row = {
    id: randomUUID(),
    user_id: userId,
    status: 'draft',
    hospital_id: latest?.hospital_id ?? null,
    // A request carries over only while it can still become the hospital.
    hospital_request_id: latest?.hospital_id ? null : (latest?.hospital_request_id ?? null),
    department: latest?.department ?? null,
    title: latest?.title ?? null,
    practice_cert_encrypted: latest?.practice_cert_encrypted ?? null,
    qualification_cert_encrypted: latest?.qualification_cert_encrypted ?? null,
    practice_category: latest?.practice_category ?? null,
    practice_scope: latest?.practice_scope ?? null,
    specialities: latest?.specialities ?? '[]',
    introduction: latest?.introduction ?? '',
    agreement_version: null,
    reject_reason: null,
    submitted_at: null,
    decided_at: null,
    decided_by: null,
    version: 1,
    created_at: at,
    updated_at: at,
  }
  try {
    await db.insertInto('expert_applications').values(row).execute()
    return row
  } catch (error) {
    if (!isUniqueViolation(error)) throw error
    const winner = await latestApplication(db, userId)
    if (!winner || winner.status !== 'draft') throw conflict(EXPERT_MESSAGES.busy)
    return winner
  }
}

/** Writes `changes` on the row only if nobody changed it since it was read. */
async function updateIfUnchanged(
  db: DB,
  row: Row,
  changes: Partial<Row>,
  now: Date,
  message: string = EXPERT_MESSAGES.busy,
): Promise<void> {
  const result = await db
    .updateTable('expert_applications')
    .set({ ...changes, version: row.version + 1, updated_at: now.toISOString() })
    .where('id', '=', row.id)
    .where('version', '=', row.version)
    .where('status', '=', row.status)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) throw conflict(message)
}

async function reread(db: DB, cipher: FieldCipher, id: string): Promise<ExpertApplication> {
  const row = await db
    .selectFrom('expert_applications')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return toApplication(db, cipher, row)
}

export async function saveDraft(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: ExpertDraft,
  now: Date,
): Promise<ExpertApplication> {
  if (input.hospitalId !== undefined) {
    const hospital = await db
      .selectFrom('hospitals')
      .select('id')
      .where('id', '=', input.hospitalId)
      .executeTakeFirst()
    if (!hospital) throw badRequest(EXPERT_MESSAGES.hospitalUnknown)
  }
  const request =
    input.hospitalRequestId !== undefined && input.hospitalId === undefined
      ? await ownRequestForApplication(db, userId, input.hospitalRequestId)
      : undefined
  const row = await editableApplication(db, userId, now)
  const changes: Partial<Row> = { status: 'draft' }
  if (input.hospitalId !== undefined) {
    changes.hospital_id = input.hospitalId
    changes.hospital_request_id = null
  } else if (request) {
    // Until an operator adds it the application has no hospital, only the request.
    changes.hospital_request_id = request.id
    changes.hospital_id = request.hospital_id
  }
  if (input.department !== undefined) changes.department = input.department
  if (input.title !== undefined) changes.title = input.title
  if (input.practiceCertificateNo !== undefined) {
    changes.practice_cert_encrypted = cipher.encrypt(input.practiceCertificateNo)
  }
  if (input.qualificationCertificateNo !== undefined) {
    changes.qualification_cert_encrypted = cipher.encrypt(input.qualificationCertificateNo)
  }
  if (input.practiceCategory !== undefined) changes.practice_category = input.practiceCategory
  if (input.practiceScope !== undefined) changes.practice_scope = input.practiceScope
  if (input.specialities !== undefined) {
    changes.specialities = JSON.stringify([...new Set(input.specialities)])
  }
  if (input.introduction !== undefined) changes.introduction = input.introduction
  await updateIfUnchanged(db, row, changes, now)
  return reread(db, cipher, row.id)
}

/**
 * One certificate photo: sniffed, decoded and re-encoded as JPEG (nothing but its pixels survives:
 * no EXIF, no location), stored under a private key, at most EXPERT_PHOTOS_PER_KIND of a kind. The
 * count is checked inside the transaction that adds the row, after the application row is touched,
 * so two uploads racing for the last place are ordered by that row's lock (PostgreSQL) or the single
 * writer (SQLite).
 */
export async function addPhoto(
  db: DB,
  cipher: FieldCipher,
  store: ObjectStore,
  userId: string,
  kind: ExpertPhotoKind,
  bytes: Buffer,
  now: Date,
): Promise<ExpertApplication> {
  const clean = await cleanPhoto(bytes, PHOTO_WORDS)
  const row = await editableApplication(db, userId, now)
  const id = randomUUID()
  const key = `experts/${userId}/${id}.jpg`
  await store.put(key, clean.bytes, { contentType: 'image/jpeg' })
  try {
    await db.transaction().execute(async (trx) => {
      // A photo added to a rejected application makes it a draft again, like any fix.
      await updateIfUnchanged(trx, row, { status: 'draft' }, now)
      const count = await trx
        .selectFrom('expert_application_photos')
        .select(sql<number | string>`count(*)`.as('n'))
        .where('application_id', '=', row.id)
        .where('kind', '=', kind)
        .executeTakeFirstOrThrow()
      if (Number(count.n) >= EXPERT_PHOTOS_PER_KIND) throw badRequest(EXPERT_MESSAGES.photosTooMany)
      const photo: ExpertApplicationPhotosTable = {
        id,
        application_id: row.id,
        kind,
        storage_key: key,
        mime_type: 'image/jpeg',
        size_bytes: clean.bytes.length,
        width: clean.width,
        height: clean.height,
        created_at: now.toISOString(),
      }
      await trx.insertInto('expert_application_photos').values(photo).execute()
    })
  } catch (error) {
    // The row was not written: the stored bytes would belong to nobody.
    await store.delete(key)
    throw error
  }
  return reread(db, cipher, row.id)
}

export async function removePhoto(
  db: DB,
  cipher: FieldCipher,
  store: ObjectStore,
  userId: string,
  photoId: string,
  now: Date,
): Promise<ExpertApplication> {
  const photo = await db
    .selectFrom('expert_application_photos')
    .innerJoin(
      'expert_applications',
      'expert_applications.id',
      'expert_application_photos.application_id',
    )
    .select(['expert_application_photos.storage_key', 'expert_applications.id as applicationId'])
    .where('expert_application_photos.id', '=', photoId)
    .where('expert_applications.user_id', '=', userId)
    .executeTakeFirst()
  // Another person's photo is answered as a missing one: its id confirms nothing.
  if (!photo) throw notFound(EXPERT_MESSAGES.photoNotFound)
  const row = await editableApplication(db, userId, now)
  if (row.id !== photo.applicationId) throw notFound(EXPERT_MESSAGES.photoNotFound)
  await db.transaction().execute(async (trx) => {
    await updateIfUnchanged(trx, row, { status: 'draft' }, now)
    await trx.deleteFrom('expert_application_photos').where('id', '=', photoId).execute()
  })
  await store.delete(photo.storage_key)
  return reread(db, cipher, row.id)
}

/** The first required field the application lacks, named as the form names it. */
function missingField(row: Row): string | null {
  const present: Record<keyof typeof EXPERT_FIELD_LABELS, boolean> = {
    // A hospital, or the person's request to add theirs (the operator settles it before approving).
    hospitalId: row.hospital_id !== null || row.hospital_request_id !== null,
    department: row.department !== null,
    title: row.title !== null,
    practiceCertificateNo: row.practice_cert_encrypted !== null,
    qualificationCertificateNo: row.qualification_cert_encrypted !== null,
    practiceCategory: row.practice_category !== null,
    practiceScope: row.practice_scope !== null,
    specialities: parseList(row.specialities).length > 0,
  }
  const key = (Object.keys(present) as (keyof typeof EXPERT_FIELD_LABELS)[]).find(
    (name) => !present[name],
  )
  return key ? EXPERT_FIELD_LABELS[key] : null
}

/**
 * Submits the draft (or the fixed rejected application): a bound ID card (the certified name is the
 * card's), every required field, the two practice-certificate photos, and the current expert
 * agreement accepted by its version, recorded in `consents` like the privacy policy at sign-up.
 */
export async function submit(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  input: { agreementVersion: string },
  now: Date,
): Promise<ExpertApplication> {
  const row = await latestApplication(db, userId)
  if (!row) throw badRequest(EXPERT_MESSAGES.noApplication)
  if (row.status !== 'draft' && row.status !== 'rejected') {
    throw conflict(EXPERT_MESSAGES.notSubmittable)
  }
  const card = await db
    .selectFrom('id_cards')
    .select('id')
    .where('user_id', '=', userId)
    .executeTakeFirst()
  if (!card) throw badRequest(EXPERT_MESSAGES.idCardMissing, REASONS.expertIdCardMissing)
  const missing = missingField(row)
  if (missing) throw badRequest(EXPERT_MESSAGES.fieldsMissing(missing))
  if (!row.hospital_id && row.hospital_request_id) {
    const request = await findRequest(db, row.hospital_request_id)
    if (request?.status === 'declined') throw badRequest(HOSPITAL_REQUEST_MESSAGES.declined)
  }
  const kinds = new Set((await photosOf(db, row.id)).map((photo) => photo.kind))
  if (!EXPERT_REQUIRED_PHOTO_KINDS.every((kind) => kinds.has(kind))) {
    throw badRequest(EXPERT_MESSAGES.photosMissing)
  }
  const policy = await findCurrentPolicy(db, 'expert')
  if (!policy || policy.version !== input.agreementVersion) {
    throw badRequest(EXPERT_MESSAGES.agreementOutdated)
  }
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    await updateIfUnchanged(
      trx,
      row,
      { status: 'pending', agreement_version: policy.version, submitted_at: at },
      now,
    )
    await writeConsent(
      trx,
      {
        userId,
        purpose: 'expert',
        version: policy.version,
        channel: CONSENT_CHANNELS.expertApplication,
      },
      now,
    )
  })
  return reread(db, cipher, row.id)
}

/** Withdraws the open application; its photos go, rows and files (README.md says why no copy is kept). */
export async function withdraw(
  db: DB,
  cipher: FieldCipher,
  store: ObjectStore,
  userId: string,
  now: Date,
): Promise<ExpertApplication> {
  const row = await latestApplication(db, userId)
  if (!row) throw badRequest(EXPERT_MESSAGES.noApplication)
  if (!(OPEN as readonly string[]).includes(row.status)) {
    throw conflict(EXPERT_MESSAGES.notWithdrawable)
  }
  const photos = await db.transaction().execute(async (trx) => {
    // Conditional on the status read: an operator deciding meanwhile wins, the withdrawal says so.
    await updateIfUnchanged(trx, row, { status: 'withdrawn' }, now, EXPERT_MESSAGES.alreadyDecided)
    const gone = await photosOf(trx, row.id)
    await trx.deleteFrom('expert_application_photos').where('application_id', '=', row.id).execute()
    return gone
  })
  // After the commit: a crash between leaves orphan bytes under experts/<user>/, never a row
  // pointing at nothing.
  for (const photo of photos) await store.delete(photo.storage_key)
  return reread(db, cipher, row.id)
}

/** A certificate photo, for its applicant or an operator; anyone else is told it does not exist. */
export async function readPhoto(
  db: DB,
  caller: { userId: string; operator: boolean },
  photoId: string,
): Promise<{ key: string }> {
  const row = await db
    .selectFrom('expert_application_photos')
    .innerJoin(
      'expert_applications',
      'expert_applications.id',
      'expert_application_photos.application_id',
    )
    .select(['expert_application_photos.storage_key', 'expert_applications.user_id'])
    .where('expert_application_photos.id', '=', photoId)
    .executeTakeFirst()
  if (!row || (!caller.operator && row.user_id !== caller.userId)) {
    throw notFound(EXPERT_MESSAGES.photoNotFound)
  }
  return { key: row.storage_key }
}
