import type { Kysely, Migration } from 'kysely'

/*
 * 亲情卡's joint guardians (contract/main/family.ts): the guardian who added a child invites the other
 * parent by phone; the invitee, signed in with that phone, accepts with a code to it. The phone is
 * kept as the account table keeps it (the invitee may not have an account yet); the row goes with
 * the inviter's or the child's account, and a pending one is useless after `expires_at`.
 */
export const guardianInvitations: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('guardian_invitations')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('child_user_id', 'text', (col) => col.notNull())
      .addColumn('inviter_user_id', 'text', (col) => col.notNull())
      .addColumn('invitee_mobile', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('expires_at', 'text', (col) => col.notNull())
      .addColumn('accepted_at', 'text')
      .addColumn('declined_at', 'text')
      .execute()
    await db.schema
      .createIndex('guardian_invitations_by_invitee')
      .on('guardian_invitations')
      .columns(['invitee_mobile', 'expires_at'])
      .execute()
    await db.schema
      .createIndex('guardian_invitations_by_child')
      .on('guardian_invitations')
      .columns(['child_user_id'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('guardian_invitations').execute()
  },
}
