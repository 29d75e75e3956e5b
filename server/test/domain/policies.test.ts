import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import type { DatabaseHandle } from '../../src/db'
import { ensurePolicies, findCurrentPolicy } from '../../src/domain/policies'
import { DEFAULT_SOFTWARE_NAME, POLICY_TEXTS, type PolicyText } from '../../src/domain/policy-texts'
import { openTestDatabase } from '../helpers'

let handle: DatabaseHandle
before(async () => {
  handle = openTestDatabase()
  await handle.migrate()
})

const text = (overrides: Partial<PolicyText>): PolicyText => ({
  kind: 'privacy',
  softwareName: DEFAULT_SOFTWARE_NAME,
  version: '1.0.0',
  title: '隐私政策',
  updatedAt: '2026-01-01T00:00:00.000Z',
  content: '正文',
  ...overrides,
})

test('the published texts cover every kind, each with a default version', () => {
  for (const kind of ['privacy', 'user', 'expert'] as const) {
    assert.ok(POLICY_TEXTS.some((t) => t.kind === kind && t.softwareName === DEFAULT_SOFTWARE_NAME))
  }
  for (const t of POLICY_TEXTS) assert.equal(new Date(t.updatedAt).toISOString(), t.updatedAt)
})

test('ensurePolicies inserts what is missing and nothing twice', async () => {
  assert.equal(await ensurePolicies(handle.db), POLICY_TEXTS.length)
  assert.equal(await ensurePolicies(handle.db), 0)
  const rows = await handle.db.selectFrom('policy_documents').select('kind').execute()
  assert.equal(rows.length, POLICY_TEXTS.length)
})

test('a published version is never overwritten', async () => {
  const original = POLICY_TEXTS.find((t) => t.kind === 'user')!
  assert.equal(await ensurePolicies(handle.db, [{ ...original, content: '改过的正文' }]), 0)
  const current = await findCurrentPolicy(handle.db, 'user')
  assert.equal(current?.content, original.content)
})

test('the newest version is current, per softwareName, with the default as fallback', async () => {
  await ensurePolicies(handle.db, [
    text({ kind: 'expert', version: '2.0.0', updatedAt: '2099-01-01T00:00:00.000Z' }),
    text({
      kind: 'expert',
      softwareName: 'yingxiang-app',
      version: 'app-1',
      updatedAt: '2000-01-01T00:00:00.000Z',
    }),
  ])
  assert.equal((await findCurrentPolicy(handle.db, 'expert'))?.version, '2.0.0')
  assert.equal((await findCurrentPolicy(handle.db, 'expert', 'yingxiang-weapp'))?.version, '2.0.0')
  // A softwareName with its own text gets it, even when the default is newer.
  const own = await findCurrentPolicy(handle.db, 'expert', 'yingxiang-app')
  assert.equal(own?.version, 'app-1')
  assert.equal(own?.softwareName, 'yingxiang-app')
})

test('no policy of a kind at all gives undefined', async () => {
  const empty = openTestDatabase()
  await empty.migrate()
  assert.equal(await findCurrentPolicy(empty.db, 'privacy', 'yingxiang-h5'), undefined)
})
