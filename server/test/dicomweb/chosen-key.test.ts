import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { ingestFiles } from '../../src/domain/ingest/ingest'
import { testInstance } from '../dicom/writer'
import { buildTestApp } from '../helpers'

test('a hospital key with a chosen value (the demo key) reads its studies over QIDO-RS', async () => {
  const app = await buildTestApp({
    demoMode: true,
    uploadDir: path.join(os.tmpdir(), `chosen-key-${randomBytes(4).toString('hex')}`),
  })
  const ctx = { db: app.db, store: app.store, cipher: app.personalCipher, now: () => new Date() }
  await ingestFiles(ctx, { kind: 'hospital', hospitalId: 'demo-hospital-01' }, [
    { name: 'a.dcm', bytes: testInstance() },
  ])
  const ask = (key: string) =>
    app.inject({
      method: 'GET',
      url: '/dicomweb/studies',
      headers: { authorization: `Bearer ${key}`, accept: 'application/dicom+json' },
    })
  const own = await ask('demo-hospital-key')
  assert.equal(own.statusCode, 200, own.body)
  assert.equal((own.json() as unknown[]).length, 1)
  const other = await ask('demo02-hospital-key')
  assert.equal(other.statusCode, 200, 'another hospital: its own (none) studies')
  assert.deepEqual(other.json(), [])
  assert.equal((await ask('not-a-key-or-a-token')).statusCode, 401)
})
