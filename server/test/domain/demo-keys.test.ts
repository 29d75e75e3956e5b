import assert from 'node:assert/strict'
import { test } from 'node:test'
import { checkHospitalKey } from '../../src/domain/hospitals'
import { DEMO_HOSPITAL_KEYS } from '../../src/domain/hospitals/demo-keys'
import { seed } from '../../src/domain/seed'
import { openTestDatabase } from '../helpers'

const now = () => new Date('2030-01-01T00:00:00.000Z')

test('the published demo hospital keys work in demo mode only, and come back with it', async () => {
  const handle = openTestDatabase()
  await handle.migrate()
  const db = handle.db
  await seed(db, { demo: true, now })
  for (const { hospitalId, key } of DEMO_HOSPITAL_KEYS) {
    const check = await checkHospitalKey(db, key, now())
    assert.ok(check.ok && check.hospital.id === hospitalId, key)
  }
  const placed = await db
    .selectFrom('hospitals')
    .select(['region_code', 'region_name', 'ai_reporting'])
    .where('id', '=', 'demo-hospital-01')
    .executeTakeFirstOrThrow()
  assert.deepEqual(placed, { region_code: '110101', region_name: '北京市东城区', ai_reporting: 1 })

  await seed(db, { demo: false, now })
  for (const { key } of DEMO_HOSPITAL_KEYS) {
    assert.deepEqual(await checkHospitalKey(db, key, now()), { ok: false, reason: 'unknown' }, key)
  }

  await seed(db, { demo: true, now })
  assert.equal((await checkHospitalKey(db, 'demo-hospital-key', now())).ok, true)
})
