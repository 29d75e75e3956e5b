import type { DB } from '../../db'
import { CONSENT_CHANNELS } from '../consents'
import { recordPolicyConsents } from './accounts'
import { createUser, findUserByMobile } from './users'

/** The demo accounts README.md lists; demo mode only (never seeded in production). */
export const DEMO_ACCOUNTS = [
  { mobile: '13800000001', password: 'demo1234', role: 'patient', nickname: '演示患者' },
  { mobile: '13900000002', password: 'demo1234', role: 'expert', nickname: '演示专家' },
  { mobile: '13700000003', password: 'demo1234', role: 'operator', nickname: '演示运营' },
] as const

// Shaped as seed.ts's DemoStep without importing it (seed.ts imports this module).
export const demoAccountsStep = {
  name: 'identity-demo-accounts',
  async run(db: DB, now: Date): Promise<void> {
    for (const account of DEMO_ACCOUNTS) {
      // Someone may have registered the number by hand before the step ran: keep their account.
      if (await findUserByMobile(db, account.mobile)) continue
      const user = await createUser(db, { ...account, now })
      // A demo account agreed to the policies as a registration does (隐私与授权 shows it).
      await recordPolicyConsents(db, user.id, CONSENT_CHANNELS.demoAccount, now)
    }
  },
}
