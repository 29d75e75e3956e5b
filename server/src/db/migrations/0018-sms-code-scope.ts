import type { Kysely, Migration } from 'kysely'

/*
 * sms_codes.scope: the account a code was asked for on someone else's behalf (the 亲情卡 code an
 * adult gets when a manager adds them). A code was looked up by phone and purpose only, so when two
 * accounts asked the same phone for a family code, the latest row answered for both and the first
 * asker's right code was 验证码错误. Null for a phone holder's own codes.
 */
export const smsCodeScope: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('sms_codes').addColumn('scope', 'text').execute()
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('sms_codes').dropColumn('scope').execute()
  },
}
