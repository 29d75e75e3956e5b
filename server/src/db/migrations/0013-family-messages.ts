import { type Kysely, type Migration, sql } from 'kysely'

/*
 * Family members (亲情卡, issue 9) and the app's messages (SPEC section 7).
 *
 * family_links: a manager sees a member's records while the link is active (ended_at null). A child
 * under 14 is a `users` row that cannot sign in (no mobile, password or WeChat) with an id_cards row
 * of the child's own, so the records lists match hospital exams to the child exactly as to an adult.
 * An ended link is kept (ended_at set) as the trace of who could see what until when; the partial
 * unique index allows one active link per manager and member, and a new one after an end.
 *
 * messages: what the server tells a person (a grant first viewed, a report arrived). `link` is the
 * route and query as JSON text, so both databases store the same thing.
 */
export const familyMessages: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('family_links')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('manager_user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      .addColumn('member_user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // 'child' | 'adult'
      .addColumn('kind', 'text', (col) => col.notNull())
      // contract FAMILY_RELATIONS
      .addColumn('relation', 'text', (col) => col.notNull())
      .addColumn('created_at', 'text', (col) => col.notNull())
      .addColumn('ended_at', 'text')
      .execute()
    await db.schema
      .createIndex('family_links_active_uq')
      .on('family_links')
      .columns(['manager_user_id', 'member_user_id'])
      .unique()
      .where(sql.ref('ended_at'), 'is', null)
      .execute()
    // "Who manages this member" (the access check, 管理我的人, the cascade from users).
    await db.schema
      .createIndex('family_links_member_idx')
      .on('family_links')
      .columns(['member_user_id', 'ended_at'])
      .execute()

    await db.schema
      .createTable('messages')
      .addColumn('id', 'text', (col) => col.primaryKey())
      .addColumn('user_id', 'text', (col) =>
        col.notNull().references('users.id').onDelete('cascade'),
      )
      // contract MESSAGE_KINDS
      .addColumn('kind', 'text', (col) => col.notNull())
      .addColumn('title', 'text', (col) => col.notNull())
      .addColumn('body', 'text', (col) => col.notNull())
      // JSON `{ route, params }` or null.
      .addColumn('link', 'text')
      .addColumn('read_at', 'text')
      .addColumn('created_at', 'text', (col) => col.notNull())
      .execute()
    await db.schema
      .createIndex('messages_user_created_idx')
      .on('messages')
      .columns(['user_id', 'created_at', 'id'])
      .execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('messages').execute()
    await db.schema.dropTable('family_links').execute()
  },
}
