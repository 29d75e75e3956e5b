import { type Kysely, type Migration, sql } from 'kysely'

/*
 * The payee of each withdrawal as it was when it was made: the certified real name and the ID number
 * of the expert's ID card (the field cipher's ciphertext, as id_cards holds it) and the name of the
 * expert's 执业机构. The quarterly income report (domain/wallet/income-report.ts, 国务院令第810号
 * art. 4) must name everyone paid through the platform; it read them live from id_cards and experts,
 * which account deletion removes, so a quarter in which an expert was paid and then left had a line
 * without name or number. It now falls back to these.
 *
 * Withdrawals made before this migration get the expert's ID card and hospital as they are now,
 * where they still exist: the ciphertext is copied, not decrypted (one key for both tables). Those
 * of experts already deleted stay null (nothing is left to copy).
 */
export const withdrawalPayee: Migration = {
  async up(db: Kysely<unknown>) {
    // One column per statement: SQLite adds one at a time.
    await db.schema.alterTable('withdrawals').addColumn('payee_name_encrypted', 'text').execute()
    await db.schema
      .alterTable('withdrawals')
      .addColumn('payee_id_number_encrypted', 'text')
      .execute()
    await db.schema.alterTable('withdrawals').addColumn('payee_hospital_name', 'text').execute()
    await sql`
      update withdrawals set
        payee_name_encrypted = (
          select c.holder_encrypted from id_cards c where c.user_id = withdrawals.expert_user_id),
        payee_id_number_encrypted = (
          select c.number_encrypted from id_cards c where c.user_id = withdrawals.expert_user_id),
        payee_hospital_name = (
          select h.name from experts x join hospitals h on h.id = x.hospital_id
          where x.user_id = withdrawals.expert_user_id)
    `.execute(db)
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('withdrawals').dropColumn('payee_hospital_name').execute()
    await db.schema.alterTable('withdrawals').dropColumn('payee_id_number_encrypted').execute()
    await db.schema.alterTable('withdrawals').dropColumn('payee_name_encrypted').execute()
  },
}
