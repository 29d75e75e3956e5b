import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import type { ObjectStore } from '../../src/storage'
import { testInstance } from '../dicom/writer'
import { TEST_DB_KIND } from '../helpers'
import { patient, sendZip, settled, storedKeys, uploadWorld, usage } from './upload-support'
import { writeZip } from './zip-writer'

/**
 * An upload whose ingest fails for a reason nobody foresaw (the object store is down): the job
 * runner retries it, the quota held meanwhile is the zip's own size, and a job that never succeeds
 * ends 失败 with every byte given back and nothing stored. One that succeeds on a retry is stored once.
 */

/** A store whose puts under objects/ fail while `failing` says so. */
function flaky(store: ObjectStore, failing: { puts: number }): ObjectStore {
  return {
    kind: store.kind,
    put: async (key, body, options) => {
      if (key.startsWith('objects/') && failing.puts > 0) {
        failing.puts -= 1
        throw new Error('store unavailable')
      }
      return store.put(key, body, options)
    },
    get: (key, options) => store.get(key, options),
    head: (key) => store.head(key),
    exists: (key) => store.exists(key),
    delete: (key) => store.delete(key),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
    sync: (keys) => store.sync(keys),
  }
}

async function eventually(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) assert.fail('condition not reached')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

const zip = (n: number) =>
  writeZip([
    {
      name: 'a.dcm',
      data: testInstance([
        { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.10.11.${process.pid}.${n}` },
        { tag: '0020000D', vr: 'UI', value: `1.2.826.0.1.3680043.10.11.${process.pid}.${n}.1` },
      ]),
    },
  ])

describe(`upload retries (${TEST_DB_KIND})`, async () => {
  const failing = { puts: 0 }
  const world = await uploadWorld({}, (store) => flaky(store, failing))

  test('a failed attempt is retried and the study stored once; the quota is what was stored', async () => {
    const user = await patient(world)
    failing.puts = 1
    const state = await settled(world, user, (await sendZip(world, user, zip(1))).uploadId)
    assert.equal(state.status, 'ready', state.message ?? '')
    assert.equal(state.storedCount, 1)
    const exam = await world.app.db
      .selectFrom('exams')
      .select(['size_bytes', 'instance_count'])
      .where('owner_user_id', '=', user.user.id)
      .executeTakeFirstOrThrow()
    assert.equal(exam.instance_count, 1)
    assert.equal(await usage(world, user), Number(exam.size_bytes))
  })

  test('failing every attempt ends 失败 with a Chinese message, nothing stored, the quota back', async () => {
    const user = await patient(world)
    failing.puts = 1_000
    const sent = await sendZip(world, user, zip(2))
    const state = await settled(world, user, sent.uploadId, 60_000)
    failing.puts = 0
    assert.equal(state.status, 'failed')
    assert.equal(state.message, '处理失败：服务器多次尝试仍未完成，请稍后重新提交')
    await eventually(async () => (await usage(world, user)) === 0)
    const exams = await world.app.db
      .selectFrom('exams')
      .select('id')
      .where('owner_user_id', '=', user.user.id)
      .execute()
    assert.deepEqual(exams, [])
    assert.deepEqual(
      storedKeys(world).filter((key) => key.includes(sent.uploadId)),
      [],
    )
  })
})
