import type { DB } from '../../db'
import { findHospital } from './hospitals'
import { storeHospitalKey } from './api-keys'

/*
 * Published API keys of demo hospitals: anyone following the README can push a study or a report by
 * hand and watch it reach the demo patient. Keys are told apart by their first 12 characters. Demo mode only: seed.ts deletes every key of a demo
 * hospital when the server starts with demo mode off, so these never open a real deployment.
 */
export const DEMO_HOSPITAL_KEYS = [
  { hospitalId: 'demo-hospital-01', key: 'demo-hospital-key' },
  { hospitalId: 'demo-hospital-02', key: 'demo02-hospital-key' },
  { hospitalId: 'demo-hospital-03', key: 'demo03-hospital-key' },
] as const

export const demoHospitalKeysStep = {
  name: 'demo-hospital-keys',
  async run(db: DB, now: Date): Promise<void> {
    for (const { hospitalId, key } of DEMO_HOSPITAL_KEYS) {
      await storeHospitalKey(db, await findHospital(db, hospitalId), key, now)
    }
  },
}

/** Demo mode off: no demo hospital keeps a key (and the step runs again if demo mode returns). */
export async function removeDemoHospitalKeys(db: DB): Promise<number> {
  const removed = await db
    .deleteFrom('hospital_api_keys')
    .where('hospital_id', 'in', db.selectFrom('hospitals').select('id').where('demo', '=', 1))
    .executeTakeFirst()
  await db.deleteFrom('seed_runs').where('name', '=', demoHospitalKeysStep.name).execute()
  return Number(removed.numDeletedRows ?? 0n)
}
