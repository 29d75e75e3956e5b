import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  hashPassword,
  hashSecret,
  maskMobile,
  randomDigits,
  randomToken,
  verifyPassword,
} from '../../../src/domain/identity'
import { describeWait } from '../../../src/domain/identity/time'
import { loadConfig } from '../../../src/config'
import { buildTestApp } from '../../helpers'

test('passwords are hashed with argon2id and verified', async () => {
  const hashed = await hashPassword('abc12345')
  assert.match(hashed, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
  assert.ok(!hashed.includes('abc12345'))
  assert.equal(await verifyPassword(hashed, 'abc12345'), true)
  assert.equal(await verifyPassword(hashed, 'abc12346'), false)
  assert.equal(await verifyPassword('not a hash', 'abc12345'), false)
  assert.notEqual(await hashPassword('abc12345'), hashed, 'salted: same password, other hash')
})

test('tokens are 32 random bytes in base64url; secrets are stored as SHA-256', () => {
  const token = randomToken()
  assert.match(token, /^[A-Za-z0-9_-]{43}$/)
  assert.equal(Buffer.from(token, 'base64url').length, 32)
  assert.notEqual(randomToken(), token)
  assert.match(hashSecret(token), /^[0-9a-f]{64}$/)
  assert.equal(hashSecret(token), hashSecret(token))
})

test('codes are 6 digits, leading zeros kept', () => {
  for (let i = 0; i < 200; i += 1) assert.match(randomDigits(), /^\d{6}$/)
})

test('phone numbers are masked as 138****8000', () => {
  assert.equal(maskMobile('13800138000'), '138****8000')
  assert.equal(maskMobile('12345'), '*****')
})

test('waits are said in seconds (rounded up), minutes or hours (to the nearest)', () => {
  assert.equal(describeWait(1), '1 秒')
  assert.equal(describeWait(59_001), '60 秒')
  assert.equal(describeWait(61_000), '1 分钟')
  assert.equal(describeWait(15 * 60_000), '15 分钟')
  assert.equal(describeWait(23.5 * 3_600_000), '24 小时')
})

test('a server hashes at the production cost; only a test configuration asks for the test cost', async () => {
  // No variable turns the test cost on: a configuration read from the environment never has it.
  const fromEnvironment = loadConfig({
    LOG_LEVEL: 'silent',
    DATABASE_URL: ':memory:',
    TEST_PASSWORD_HASH: '1',
    PASSWORD_HASH_COST: 'test',
  })
  assert.equal(fromEnvironment.testPasswordHash, false)
  // The app applies its configuration's cost when it is built (helpers' testConfig asks for the test
  // cost), and a server's configuration puts the production cost back.
  await buildTestApp()
  assert.match(await hashPassword('abc12345'), /^\$argon2id\$v=19\$m=256,t=1,p=1\$/)
  await buildTestApp({ testPasswordHash: fromEnvironment.testPasswordHash })
  assert.match(await hashPassword('abc12345'), /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/)
})
