import { type Kysely, type Migration } from 'kysely'

/*
 * Consultations and the money they hold (issue 21, contract/main/consultations.ts).
 *
 * - `consultations`: one row per order, its application, its state and every deadline of that
 *   state (the timer jobs act on these, with a conditional update, so a timer that fires twice, or
 *   late after a state change, changes nothing).
 * - `consultation_events`: the state history; `consultation_messages`: the conversation, `seq`
 *   increasing per consultation (the cursor), `client_id` making a retried send one message.
 * - `consultation_pictures`: pictures a patient uploads for an application or a message.
 * - `consultation_refunds`, `consultation_complaints`: refunds by our refund number, 投诉.
 * - The ledger: `ledger_accounts` (a cached balance, changed only with an entry, by one conditional
 *   statement that refuses to take an account that must not go negative below zero),
 *   `ledger_transfers` (one per outside event, `event_key` unique: an event applies once) and
 *   `ledger_entries` (append-only; a transfer's entries sum to zero). Amounts are integer fen, bigint.
 * - `app_settings`: operator settings (the platform's share).
 * - grants gain `purpose` ('share' | 'consultation') and the consultation they serve; experts gain the
 *   number of follow-up messages they allow; jobs gain `run_after` (timers) and `subject_id` (what a
 *   job acts on: the consultation or the refund).
 */
export const consultations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('consultations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('patient_user_id', 'text', (col) => col.notNull().references('users.id'))
      .addColumn('person_user_id', 'text', (col) => col.notNull())
      .addColumn('expert_user_id', 'text', (col) => col.notNull())
      .addColumn('service', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('price_fen', 'bigint', (col) => col.notNull())
      .addColumn('expert_fen', 'bigint', (col) => col.notNull())
      .addColumn('platform_fen', 'bigint', (col) => col.notNull())
      .addColumn('share_bp', 'integer', (col) => col.notNull())
      .addColumn('chief_complaint', 'text', (col) => col.notNull())
      .addColumn('present_illness', 'text', (col) => col.notNull())
      .addColumn('past_history', 'text', (col) => col.notNull())
      .addColumn('allergies', 'text', (col) => col.notNull())
      .addColumn('questions', 'text', (col) => col.notNull())
      .addColumn('seen_offline', 'integer', (col) => col.notNull())
      .addColumn('external_exams_json', 'text', (col) => col.notNull())
      .addColumn('followup_limit', 'integer', (col) => col.notNull())
      .addColumn('followups_used', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('grant_id', 'text', (col) => col.notNull())
      .addColumn('consent_version', 'text', (col) => col.notNull())
      .addColumn('order_no', 'text', (col) => col.notNull().unique())
      .addColumn('provider', 'text', (col) => col.notNull())
      .addColumn('transaction_id', 'text', (col) => col.unique())
      .addColumn('daily_slot_key', 'text')
      .addColumn('pay_by', 'text', (col) => col.notNull())
      .addColumn('paid_at', 'text')
      .addColumn('accept_by', 'text')
      .addColumn('accepted_at', 'text')
      .addColumn('answer_by', 'text')
      .addColumn('answered_at', 'text')
      .addColumn('complete_at', 'text')
      .addColumn('completed_at', 'text')
      .addColumn('ended_at', 'text')
      .addColumn('settle_at', 'text')
      .addColumn('settled_at', 'text')
      .addColumn('decline_reason', 'text')
      .addColumn('message_seq', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('patient_read_seq', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('expert_read_seq', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('adopted_at', 'text')
      .addColumn('rating_stars', 'integer')
      .addColumn('rating_tags', 'text')
      .addColumn('rating_text', 'text')
      .addColumn('rated_at', 'text')
      .addColumn('published_at', 'text')
      .addColumn('deleted_by_patient_at', 'text')
      .addColumn('demo', 'integer', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    for (const [name, columns] of [
      ['consultations_patient_idx', ['patient_user_id', 'state', 'created_at']],
      ['consultations_expert_idx', ['expert_user_id', 'state', 'created_at']],
      ['consultations_state_idx', ['state', 'created_at']],
      ['consultations_public_idx', ['expert_user_id', 'published_at']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on('consultations')
        .columns([...columns])
        .execute()
    }

    await db.schema
      .createTable('consultation_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('consultation_id', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('actor', 'text', (col) => col.notNull())
      .addColumn('note', 'text')
      .addColumn('at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('consultation_events_idx')
      .on('consultation_events')
      .columns(['consultation_id', 'at'])
      .execute()

    await db.schema
      .createTable('consultation_messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('consultation_id', 'text', (col) => col.notNull())
      .addColumn('seq', 'integer', (col) => col.notNull())
      .addColumn('sender', 'text', (col) => col.notNull())
      .addColumn('sender_user_id', 'text')
      .addColumn('client_id', 'text')
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('text', 'text', (col) => col.notNull())
      .addColumn('picture_id', 'text')
      .addColumn('record_kind', 'text')
      .addColumn('record_id', 'text')
      .addColumn('answer_json', 'text')
      .addColumn('signed_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addUniqueConstraint('consultation_messages_seq_key', ['consultation_id', 'seq'])
      .addUniqueConstraint('consultation_messages_client_key', [
        'consultation_id',
        'sender_user_id',
        'client_id',
      ])
      .execute()

    await db.schema
      .createTable('consultation_pictures')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('owner_user_id', 'text', (col) => col.notNull())
      .addColumn('consultation_id', 'text')
      .addColumn('object_key', 'text', (col) => col.notNull())
      .addColumn('content_type', 'text', (col) => col.notNull())
      .addColumn('width', 'integer')
      .addColumn('height', 'integer')
      .addColumn('bytes', 'integer', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('consultation_pictures_owner_idx')
      .on('consultation_pictures')
      .columns(['owner_user_id', 'consultation_id'])
      .execute()

    await db.schema
      .createTable('consultation_refunds')
      .addColumn('refund_no', 'text', (col) => col.primaryKey())
      .addColumn('consultation_id', 'text', (col) => col.notNull())
      .addColumn('amount_fen', 'bigint', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('provider_refund_id', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('succeeded_at', 'text')
      .execute()
    await db.schema
      .createIndex('consultation_refunds_consultation_idx')
      .on('consultation_refunds')
      .columns(['consultation_id'])
      .execute()

    await db.schema
      .createTable('consultation_complaints')
      .addColumn('consultation_id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) => col.notNull())
      .addColumn('text', 'text', (col) => col.notNull())
      .addColumn('state', 'text', (col) => col.notNull())
      .addColumn('refund_fen', 'bigint')
      .addColumn('decision_note', 'text')
      .addColumn('decided_by', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('decided_at', 'text')
      .execute()

    await db.schema
      .createTable('ledger_accounts')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('owner_id', 'text')
      .addColumn('allow_negative', 'integer', (col) => col.notNull())
      .addColumn('balance', 'bigint', (col) => col.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createTable('ledger_transfers')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('event_key', 'text', (col) => col.notNull().unique())
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('consultation_id', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('ledger_transfers_consultation_idx')
      .on('ledger_transfers')
      .columns(['consultation_id'])
      .execute()
    await db.schema
      .createTable('ledger_entries')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('transfer_id', 'text', (col) => col.notNull())
      .addColumn('account_id', 'text', (col) => col.notNull())
      .addColumn('amount', 'bigint', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('ledger_entries_account_idx')
      .on('ledger_entries')
      .columns(['account_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('ledger_entries_transfer_idx')
      .on('ledger_entries')
      .columns(['transfer_id'])
      .execute()

    await db.schema
      .createTable('app_settings')
      .addColumn('key', 'text', (col) => col.primaryKey())
      .addColumn('value', 'text', (col) => col.notNull())
      .addColumn('updated_by', 'text')
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()

    await db.schema
      .alterTable('grants')
      .addColumn('purpose', 'text', (col) => col.notNull().defaultTo('share'))
      .execute()
    await db.schema.alterTable('grants').addColumn('consultation_id', 'text').execute()
    await db.schema
      .alterTable('experts')
      .addColumn('followup_limit', 'integer', (col) => col.notNull().defaultTo(3))
      .execute()
    await db.schema.alterTable('ingest_jobs').addColumn('run_after', 'text').execute()
    await db.schema.alterTable('ingest_jobs').addColumn('subject_id', 'text').execute()
    await db.schema
      .createIndex('ingest_jobs_timer_idx')
      .on('ingest_jobs')
      .columns(['kind', 'subject_id'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('ingest_jobs_timer_idx').execute()
    await db.schema.alterTable('ingest_jobs').dropColumn('subject_id').execute()
    await db.schema.alterTable('ingest_jobs').dropColumn('run_after').execute()
    await db.schema.alterTable('experts').dropColumn('followup_limit').execute()
    await db.schema.alterTable('grants').dropColumn('consultation_id').execute()
    await db.schema.alterTable('grants').dropColumn('purpose').execute()
    for (const table of [
      'app_settings',
      'ledger_entries',
      'ledger_transfers',
      'ledger_accounts',
      'consultation_complaints',
      'consultation_refunds',
      'consultation_pictures',
      'consultation_messages',
      'consultation_events',
      'consultations',
    ]) {
      await db.schema.dropTable(table).execute()
    }
  },
}
