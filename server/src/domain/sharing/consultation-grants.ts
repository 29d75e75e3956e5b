import { randomUUID } from 'node:crypto'
import { GRANT_STATUS_LABELS, type GrantRecord, type GrantStatus } from '@contract/main/grants'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { GrantsTable } from '../../db/schema'
import { grantRecords, grantStatus, shareableRecords } from './grants'

/*
 * A consultation's grant (issue 21): exactly the records the patient chose, to the expert they
 * asked, labelled 咨询 in 授权记录 (purpose 'consultation'). It lasts while the consultation runs and
 * until CONSULT_GRANT_DAYS_AFTER days after it ends (endConsultationGrant sets that), or until the
 * patient revokes it in 授权记录 (the expert then sees 授权已失效, as with any grant). The expert reads
 * the records through it with the sharing issue's masking: never the patient's ID number.
 */

export interface ConsultationGrantInput {
  grantId: string
  consultationId: string
  /** Who submits (the person, or their family manager). */
  userId: string
  personId: string
  expertId: string
  examIds: readonly string[]
  reportIds: readonly string[]
  /** Until the consultation's last possible end; shortened when it ends. */
  expiresAt: Date
}

/** Checks the records (the person's own; 404 otherwise), outside the transaction. */
export async function checkConsultationRecords(
  db: DB,
  cipher: FieldCipher,
  input: Pick<ConsultationGrantInput, 'userId' | 'personId' | 'examIds' | 'reportIds'>,
) {
  return shareableRecords(db, cipher, input.userId, input.personId, input.examIds, input.reportIds)
}

/** Inside the consultation's transaction: the grant and its records. */
export async function insertConsultationGrant(
  trx: DB,
  input: ConsultationGrantInput,
  records: Awaited<ReturnType<typeof checkConsultationRecords>>,
  now: Date,
): Promise<void> {
  const row: GrantsTable = {
    id: input.grantId,
    person_user_id: input.personId,
    created_by_user_id: input.userId,
    audience: 'account',
    grantee_user_id: input.expertId,
    token_hash: null,
    pickup_hash: null,
    max_views: null,
    opens: 0,
    created_at: now.toISOString(),
    expires_at: input.expiresAt.toISOString(),
    revoked_at: null,
    first_viewed_at: null,
    purpose: 'consultation',
    consultation_id: input.consultationId,
  }
  await trx.insertInto('grants').values(row).execute()
  const rows = [
    ...records.exams.map((exam) => ({
      grant_id: row.id,
      kind: 'exam' as const,
      record_id: exam.id,
      exam_id: exam.id,
      private: 0,
    })),
    ...records.reports.map((report) => ({
      grant_id: row.id,
      kind: 'report' as const,
      record_id: report.id,
      exam_id: report.exam_id,
      private: Number(report.report_private ?? 0) === 1 ? 1 : 0,
    })),
  ]
  if (rows.length > 0) await trx.insertInto('grant_records').values(rows).execute()
}

/**
 * The consultation ended: the grant lasts until `until` (never longer than it already did, and a
 * revoked grant stays revoked). An unpaid order's grant ends at once (`until` = now).
 */
export async function endConsultationGrant(trx: DB, grantId: string, until: Date): Promise<void> {
  await trx
    .updateTable('grants')
    .set({ expires_at: until.toISOString() })
    .where('id', '=', grantId)
    .where('expires_at', '>', until.toISOString())
    .execute()
}

export interface ConsultGrantView {
  id: string
  status: GrantStatus
  statusLabel: string
  expiresAt: string
  records: GrantRecord[]
}

export async function describeConsultGrant(
  db: DB,
  _cipher: FieldCipher,
  grantId: string,
  now: Date,
): Promise<ConsultGrantView> {
  const grant = await db.selectFrom('grants').selectAll().where('id', '=', grantId).executeTakeFirst()
  const records = await grantRecords(db, [grantId])
  const status = grant ? grantStatus(grant, now) : 'revoked'
  return {
    id: grantId,
    status,
    statusLabel: GRANT_STATUS_LABELS[status],
    expiresAt: grant?.expires_at ?? now.toISOString(),
    records: records.get(grantId) ?? [],
  }
}

export const newGrantId = () => randomUUID()
