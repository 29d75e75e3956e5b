import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config'
import { createObjectStore, LocalObjectStore, S3ObjectStore } from '../../src/storage'
import { buildTestApp } from '../helpers'

const base = { LOG_LEVEL: 'silent', DATABASE_URL: ':memory:' }

test('STORAGE defaults to local disk under UPLOAD_DIR', () => {
  const config = loadConfig(base)
  assert.deepEqual(config.storage, { kind: 'local' })
  const store = createObjectStore(config.storage, config.uploadDir)
  assert.ok(store instanceof LocalObjectStore)
  assert.equal(store.root, path.join(config.uploadDir, '.objects'))
})

test('STORAGE=s3 reads the S3_* settings', () => {
  const config = loadConfig({
    ...base,
    STORAGE: 's3',
    S3_ENDPOINT: 'http://127.0.0.1:9000',
    S3_BUCKET: 'yingxiang-files',
    S3_REGION: 'cn-north-1',
    S3_ACCESS_KEY_ID: 'id',
    S3_SECRET_ACCESS_KEY: 'secret',
    S3_FORCE_PATH_STYLE: 'true',
  })
  assert.deepEqual(config.storage, {
    kind: 's3',
    endpoint: 'http://127.0.0.1:9000',
    bucket: 'yingxiang-files',
    region: 'cn-north-1',
    accessKeyId: 'id',
    secretAccessKey: 'secret',
    forcePathStyle: true,
  })
  const store = createObjectStore(config.storage, config.uploadDir)
  assert.ok(store instanceof S3ObjectStore)
  store.client.destroy()
  // Region and path style have defaults; keys may come from the SDK's own chain.
  assert.deepEqual(loadConfig({ ...base, STORAGE: 's3', S3_BUCKET: 'b-1' }).storage, {
    kind: 's3',
    bucket: 'b-1',
    region: 'us-east-1',
    forcePathStyle: false,
  })
})

test('bad storage settings are refused in Chinese, naming the variable', () => {
  const cases: [Record<string, string>, RegExp][] = [
    [{ STORAGE: 'ftp' }, /STORAGE：只能是 local（本地磁盘）或 s3/],
    [{ STORAGE: 's3' }, /S3_BUCKET：STORAGE=s3 时必须设置存储桶名/],
    [{ STORAGE: 's3', S3_BUCKET: 'Bad_Bucket' }, /S3_BUCKET：存储桶名只能包含/],
    [
      { STORAGE: 's3', S3_BUCKET: 'b-1', S3_ENDPOINT: 'minio:9000' },
      /S3_ENDPOINT：必须是完整的地址/,
    ],
    [{ STORAGE: 's3', S3_BUCKET: 'b-1', S3_ACCESS_KEY_ID: 'id' }, /必须同时设置/],
    [
      { STORAGE: 's3', S3_BUCKET: 'b-1', S3_FORCE_PATH_STYLE: 'maybe' },
      /S3_FORCE_PATH_STYLE：只能是/,
    ],
    // S3 settings without STORAGE=s3: the operator meant S3, files must not silently go to disk.
    [{ S3_BUCKET: 'b-1' }, /设置了 S3_BUCKET，但 STORAGE 不是 s3/],
  ]
  for (const [env, message] of cases) {
    assert.throws(
      () => loadConfig({ ...base, ...env }),
      (error: unknown) => error instanceof ConfigError && message.test(error.message),
      JSON.stringify(env),
    )
  }
})

test('objects stored on local disk are not served by the public /uploads route', async () => {
  const uploadDir = mkdtempSync(path.join(os.tmpdir(), 'store-uploads-'))
  after(() => rmSync(uploadDir, { recursive: true, force: true }))
  const app = await buildTestApp({ uploadDir })
  const store = createObjectStore(app.config.storage, uploadDir)
  await store.put('studies/1.2.3/a.dcm', Buffer.from('DICM'), { contentType: 'application/dicom' })
  // A file placed directly in UPLOAD_DIR is served, so the 404 below is the store's doing.
  writeFileSync(path.join(uploadDir, 'public.txt'), 'hi')
  assert.equal((await app.inject({ method: 'GET', url: '/uploads/public.txt' })).statusCode, 200)
  for (const url of [
    '/uploads/.objects/studies/1.2.3/a.dcm',
    '/uploads/.objects/studies/1.2.3/.a.dcm.meta',
    '/uploads/%2Eobjects/studies/1.2.3/a.dcm',
  ]) {
    assert.equal((await app.inject({ method: 'GET', url })).statusCode, 404, url)
  }
})
