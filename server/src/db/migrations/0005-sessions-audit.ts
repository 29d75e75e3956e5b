import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Sessions in refresh-token families, the security audit log, where a desktop QR login asked from,
 * the scanner's confirm ticket, real-name verification by a provider, and appeals for an ID number
 * bound elsewhere. Portable types only; timestamps are ISO strings made by the app.
 */
export const sessionsAudit: Migration = {
  async up(db: Kysely<unknown>) {
    // A family is every session descended from one login by refreshes. Reusing a refresh token that
    // was already rotated revokes the family; the family's first login bounds its whole lifetime.
    await db.schema.alterTable('sessions').addColumn('family_id', 'text').execute()
    await db.schema.alterTable('sessions').addColumn('family_started_at', 'text').execute()
    // Set when a refresh replaced this session (as opposed to a logout): only then is reuse theft.
    await db.schema.alterTable('sessions').addColumn('rotated_at', 'text').execute()
    // Sessions made before families existed are each their own family, started when they were made.
    await sql`update sessions set family_id = id, family_started_at = created_at where family_id is null`.execute(
      db,
    )
    await db.schema.createIndex('sessions_family_idx').on('sessions').column('family_id').execute()

    await db.schema
      .createTable('audit_events')
      .addColumn('id', 'text', (col) => col.primaryKey())
      // No foreign key: accounts are anonymised, never removed, and an event must outlive a merge.
      .addColumn('user_id', 'text')
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      // 203.0.113.* and "Chrome 120 · Windows": enough to recognise a device, not to track one.
      .addColumn('ip_masked', 'text', (col) => col.notNull())
      .addColumn('client', 'text', (col) => col.notNull())
      .addColumn('location', 'text', (col) => col.notNull())
      .addColumn('detail', 'text')
      .execute()
    await db.schema
      .createIndex('audit_events_user_idx')
      .on('audit_events')
      .columns(['user_id', 'created_at'])
      .execute()

    await db.schema.alterTable('qr_logins').addColumn('location', 'text').execute()
    // The confirm ticket handed to the scanning phone only (stored hashed), see domain/qr-login.ts.
    await db.schema.alterTable('qr_logins').addColumn('ticket_hash', 'text').execute()

    // Set only when a real-name provider confirmed the name and number belong together.
    await db.schema.alterTable('id_cards').addColumn('verified_at', 'text').execute()
    await db.schema.alterTable('id_cards').addColumn('verified_by', 'text').execute()

    await db.schema
      .createTable('id_card_appeals')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // Which number is disputed: the keyed digest (to find the other binding) and the number and
      // name encrypted like id_cards, for the operator who checks the person's documents.
      .addColumn('number_hash', 'text', (col) => col.notNull())
      .addColumn('number_encrypted', 'text', (col) => col.notNull())
      .addColumn('holder_encrypted', 'text', (col) => col.notNull())
      .addColumn('reason', 'text', (col) => col.notNull())
      .addColumn('contact', 'text', (col) => col.notNull())
      // pending → resolved | rejected, set by an operator
      .addColumn('status', 'text', (col) => col.notNull())
      .addColumn('operator_note', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('updated_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('id_card_appeals_user_idx')
      .on('id_card_appeals')
      .columns(['user_id', 'created_at'])
      .execute()
    await db.schema
      .createIndex('id_card_appeals_status_idx')
      .on('id_card_appeals')
      .columns(['status', 'created_at'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('id_card_appeals').execute()
    await db.schema.alterTable('id_cards').dropColumn('verified_by').execute()
    await db.schema.alterTable('id_cards').dropColumn('verified_at').execute()
    await db.schema.alterTable('qr_logins').dropColumn('ticket_hash').execute()
    await db.schema.alterTable('qr_logins').dropColumn('location').execute()
    await db.schema.dropTable('audit_events').execute()
    await db.schema.dropIndex('sessions_family_idx').execute()
    await db.schema.alterTable('sessions').dropColumn('rotated_at').execute()
    await db.schema.alterTable('sessions').dropColumn('family_started_at').execute()
    await db.schema.alterTable('sessions').dropColumn('family_id').execute()
  },
}
