import type { Kysely, Migration } from 'kysely'

/*
 * 检查申请单 (issue 23, domain/exam-requests): an expert's suggestion of further exams in a
 * consultation.
 *
 * - `exam_requests`: one row per suggestion, written in the same transaction as its conversation
 *   message (`message_id`); `(consultation_id, client_id)` unique, so a retried send is one
 *   request. The patient (masked) and the expert are kept as the consultation showed them then
 *   (`patient_json`, `expert_json`): the form a hospital reads does not change later. `number`
 *   (JC + day + 6 random digits) is what the Code 128 bar code carries.
 * - `consultation_messages.exam_request_json`: the card a message of kind 'exam-request' shows (id,
 *   exam, part, urgency), so the conversation reads no other room's table.
 */
export const examRequests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('exam_requests')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('number', 'text', (col) => col.notNull().unique())
      .addColumn('consultation_id', 'text', (col) => col.notNull())
      .addColumn('message_id', 'text', (col) => col.notNull())
      .addColumn('expert_user_id', 'text', (col) => col.notNull())
      .addColumn('client_id', 'text', (col) => col.notNull())
      .addColumn('exam_type', 'text', (col) => col.notNull())
      .addColumn('exam_name', 'text')
      .addColumn('body_part', 'text', (col) => col.notNull())
      .addColumn('contrast', 'text', (col) => col.notNull())
      .addColumn('urgency', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('patient_json', 'text', (col) => col.notNull())
      .addColumn('expert_json', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('exam_requests_client_key', ['consultation_id', 'client_id'])
      .execute()
    await db.schema
      .alterTable('consultation_messages')
      .addColumn('exam_request_json', 'text')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('consultation_messages').dropColumn('exam_request_json').execute()
    await db.schema.dropTable('exam_requests').execute()
  },
}
