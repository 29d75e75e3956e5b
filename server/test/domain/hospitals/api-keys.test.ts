import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DEVELOPMENT_SECRET_KEY } from '../../../src/config'
import {
  addHospital,
  checkHospitalKey,
  findHospital,
  hashHospitalKey,
  issueHospitalKey,
  listHospitalKeys,
  revokeHospitalKey,
  storeHospitalKey,
} from '../../../src/domain/hospitals'
import { seed } from '../../../src/domain/seed'
import { setSecretKey } from '../../../src/domain/identity/secrets'
import { ApiError } from '../../../src/http/errors'
import { openTestDatabase } from '../../helpers'

const T0 = new Date('2026-11-23T08:00:00.000Z')
const later = (ms: number) => new Date(T0.getTime() + ms)

async function migrated() {
  const handle = openTestDatabase()
  await handle.migrate()
  return handle.db
}

const rejectsWith = (status: number, message: RegExp) => (error: unknown) =>
  error instanceof ApiError && error.statusCode === status && message.test(error.userMessage)

test('a hospital is added with its region and flags, and found by id or name', async () => {
  const db = await migrated()
  const added = await addHospital(
    db,
    {
      name: ' 示例市第一人民医院 ',
      regionCode: '110101',
      regionName: '北京市东城区',
      aiReporting: true,
    },
    T0,
  )
  assert.equal(added.name, '示例市第一人民医院')
  assert.deepEqual(
    [added.regionCode, added.regionName, added.aiReporting, added.demo],
    ['110101', '北京市东城区', true, false],
  )
  assert.deepEqual(await findHospital(db, added.id), added)
  assert.deepEqual(await findHospital(db, '示例市第一人民医院'), added)
  await assert.rejects(findHospital(db, '不存在医院'), rejectsWith(404, /找不到医院「不存在医院」/))
  await assert.rejects(
    addHospital(db, { name: '示例市第一人民医院' }, T0),
    rejectsWith(400, /已有同名医院/),
  )
  await assert.rejects(addHospital(db, { name: '  ' }, T0), rejectsWith(400, /请填写医院名称/))
  await assert.rejects(
    addHospital(db, { name: '乙医院', regionCode: '1101' }, T0),
    rejectsWith(400, /6 位数字/),
  )
})

test('the directory demo hospitals are the same table, marked as demo data', async () => {
  const db = await migrated()
  await seed(db, { demo: true })
  const demo = await findHospital(db, 'demo-hospital-01')
  assert.equal(demo.demo, true)
  assert.equal(demo.name, '示例市第一人民医院')
  // A new one goes after them, so the sign-on directory lists it last.
  const added = await addHospital(db, { name: '新医院' }, T0)
  const row = await db
    .selectFrom('hospitals')
    .select('sort_order')
    .where('id', '=', added.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(row.sort_order), 13)
  assert.equal(added.demo, false)
})

test('a key is stored only as its prefix and keyed hash, and authenticates its hospital', async () => {
  const db = await migrated()
  const hospital = await addHospital(db, { name: '甲医院' }, T0)
  const issued = await issueHospitalKey(db, '甲医院', T0)
  assert.match(issued.key, /^yxh_[A-Za-z0-9_-]{43}$/)
  assert.equal(issued.prefix, issued.key.slice(0, 12))
  const row = await db.selectFrom('hospital_api_keys').selectAll().executeTakeFirstOrThrow()
  assert.equal(row.key_prefix, issued.prefix)
  assert.equal(row.key_hash, hashHospitalKey(issued.key))
  assert.ok(!JSON.stringify(row).includes(issued.key.slice(12)), 'the secret part is not stored')

  const check = await checkHospitalKey(db, issued.key, later(1000))
  assert.ok(check.ok)
  assert.equal(check.hospital.id, hospital.id)
  assert.equal(check.keyPrefix, issued.prefix)

  // The same prefix with another ending, a truncated key, junk: all unknown.
  const tampered = issued.key.slice(0, -1) + (issued.key.endsWith('A') ? 'B' : 'A')
  for (const key of [tampered, issued.key.slice(0, 20), 'x'.repeat(300), '']) {
    assert.deepEqual(await checkHospitalKey(db, key, later(1000)), { ok: false, reason: 'unknown' })
  }
})

test('the hash is keyed by SECRET_KEY: another server secret does not accept the key', async () => {
  const db = await migrated()
  await addHospital(db, { name: '甲医院' }, T0)
  const issued = await issueHospitalKey(db, '甲医院', T0)
  try {
    setSecretKey(Buffer.alloc(32, 7))
    assert.deepEqual(await checkHospitalKey(db, issued.key, T0), { ok: false, reason: 'unknown' })
  } finally {
    setSecretKey(DEVELOPMENT_SECRET_KEY)
  }
  assert.equal((await checkHospitalKey(db, issued.key, T0)).ok, true)
})

test('revoked keys are refused; other keys of the hospital keep working', async () => {
  const db = await migrated()
  await addHospital(db, { name: '甲医院' }, T0)
  const first = await issueHospitalKey(db, '甲医院', T0)
  const second = await issueHospitalKey(db, '甲医院', T0)
  const revoked = await revokeHospitalKey(db, first.prefix, later(5))
  assert.equal(revoked.alreadyRevokedAt, undefined)
  assert.deepEqual(await checkHospitalKey(db, first.key, later(10)), {
    ok: false,
    reason: 'revoked',
  })
  assert.equal((await checkHospitalKey(db, second.key, later(10))).ok, true)
  const again = await revokeHospitalKey(db, first.prefix, later(20))
  assert.equal(again.alreadyRevokedAt, later(5).toISOString())
  await assert.rejects(revokeHospitalKey(db, 'yxh_nothing1', T0), rejectsWith(404, /找不到前缀/))
  await assert.rejects(revokeHospitalKey(db, 'yxh', T0), rejectsWith(404, /找不到前缀/))
  const keys = await listHospitalKeys(db)
  assert.deepEqual(
    keys.map((key) => [key.prefix, key.revokedAt]).sort(),
    [
      [first.prefix, later(5).toISOString()],
      [second.prefix, null],
    ].sort(),
  )
})

test('last use is recorded, at most once a minute', async () => {
  const db = await migrated()
  await addHospital(db, { name: '甲医院' }, T0)
  const issued = await issueHospitalKey(db, '甲医院', T0)
  const lastUsed = async () => (await listHospitalKeys(db))[0]!.lastUsedAt
  assert.equal(await lastUsed(), null)
  await checkHospitalKey(db, issued.key, later(1000))
  assert.equal(await lastUsed(), later(1000).toISOString())
  await checkHospitalKey(db, issued.key, later(30_000))
  assert.equal(await lastUsed(), later(1000).toISOString())
  await checkHospitalKey(db, issued.key, later(61_000))
  assert.equal(await lastUsed(), later(61_000).toISOString())
})

test('a chosen key (the demo key) can be stored; prefixes stay unique', async () => {
  const db = await migrated()
  const hospital = await addHospital(db, { name: '甲医院' }, T0)
  await storeHospitalKey(db, hospital, 'demo-hospital-key', T0)
  assert.equal((await checkHospitalKey(db, 'demo-hospital-key', T0)).ok, true)
  await assert.rejects(
    storeHospitalKey(db, hospital, 'demo-hospital-key-2', T0),
    rejectsWith(400, /前缀 demo-hospita 已被使用/),
  )
  await assert.rejects(storeHospitalKey(db, hospital, 'short', T0), rejectsWith(400, /可见 ASCII/))
})
