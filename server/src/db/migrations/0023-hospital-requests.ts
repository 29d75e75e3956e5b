import type { Kysely, Migration } from 'kysely'

/*
 * "My hospital is not listed" (issue 20, contract/main/hospital-requests.ts): a person's request to
 * add a hospital, and the expert application that waits for it. Resolving a request fills its
 * hospital into the applications that name it, so `hospital_request_id` stays as their history.
 */
export const hospitalRequests: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('hospital_requests')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('name', 'text', (col) => col.notNull())
      .addColumn('province', 'text', (col) => col.notNull())
      .addColumn('city', 'text', (col) => col.notNull())
      .addColumn('address', 'text')
      // contract HOSPITAL_REQUEST_STATUSES
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('hospital_id', 'text')
      .addColumn('decline_reason', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('decided_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    // The operators' queue (oldest pending first) and a person's own list.
    await db.schema
      .createIndex('hospital_requests_queue_idx')
      .on('hospital_requests')
      .columns(['status', 'created_at'])
      .execute()
    await db.schema
      .createIndex('hospital_requests_user_idx')
      .on('hospital_requests')
      .columns(['user_id', 'status'])
      .execute()
    await db.schema
      .alterTable('expert_applications')
      .addColumn('hospital_request_id', 'text')
      .execute()
    await db.schema
      .createIndex('expert_applications_hospital_request_idx')
      .on('expert_applications')
      .column('hospital_request_id')
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('expert_applications_hospital_request_idx').execute()
    await db.schema.alterTable('expert_applications').dropColumn('hospital_request_id').execute()
    await db.schema.dropTable('hospital_requests').execute()
  },
}
