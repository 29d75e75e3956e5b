import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { CreateBucketCommand, ListObjectsV2Command } from '@aws-sdk/client-s3'
import type { FastifyInstance } from 'fastify'
import S3rver from 's3rver'
import { addHospital, issueHospitalKey } from '../../src/domain/hospitals'
import { idCardCheckChar } from '../../src/domain/identity/id-card-number'
import { bindIdCard } from '../../src/domain/profile/id-cards'
import { previewKeyPrefix } from '../../src/domain/records/images'
import { LOCAL_STORE_DIR, S3ObjectStore } from '../../src/storage'
import { testInstance } from '../dicom/writer'
import { signUp, type TestUser } from '../domain/profile/support'
import { multipartBody } from '../dicomweb/stow-support'
import { buildTestApp, TEST_DB_KIND } from '../helpers'

// The SDK warns once per process that its 2027 releases need Node 22; the tests run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'

/*
 * Ingest with STORAGE=s3 end to end: the app is configured for an S3 bucket (s3rver on a loopback
 * port, as the adapter's contract tests start it), a hospital pushes over STOW-RS, the job stores
 * the instance in the bucket, and the patient reads a frame and a thumbnail (rendered from the
 * bucket, cached back into it). Nothing lands on the local disk.
 */

const BUCKET = 'yingxiang-ingest'
const directory = mkdtempSync(path.join(os.tmpdir(), 's3rver-ingest-'))
const uploadDir = path.join(os.tmpdir(), `ingest-s3-${randomBytes(4).toString('hex')}`)
const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
let app: FastifyInstance
let origin: string
let hospitalKey: string
let patient: TestUser

const first17 = '11010119800101001'
const ID_NUMBER = first17 + idCardCheckChar(first17)
const NAME = '赵存储'
const UID = `1.2.826.0.1.3680043.10.8.${process.pid}.${Date.now() % 1_000_000}`
const uids = { study: `${UID}.1`, series: `${UID}.2`, sop: `${UID}.3` }
const SIDE = 96
const PIXELS = Buffer.from(Array.from({ length: SIDE * SIDE }, (_, i) => (i * 7) % 251))

before(async () => {
  const { port } = (await s3.run()) as AddressInfo
  const storage = {
    kind: 's3' as const,
    endpoint: `http://127.0.0.1:${port}`,
    bucket: BUCKET,
    region: 'us-east-1',
    // s3rver's fixed development credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  }
  app = await buildTestApp({ storage, uploadDir })
  assert.ok(app.store instanceof S3ObjectStore, 'the configuration chose the S3 store')
  await app.store.client.send(new CreateBucketCommand({ Bucket: BUCKET }))
  const now = new Date()
  const hospital = await addHospital(app.db, { name: `S3 测试医院 ${UID}` }, now)
  hospitalKey = (await issueHospitalKey(app.db, hospital.id, now)).key
  patient = await signUp(app.db, now)
  await bindIdCard(
    app.db,
    app.personalCipher,
    patient.user.id,
    { realName: NAME, idCard: ID_NUMBER },
    now,
  )
  await app.listen({ host: '127.0.0.1', port: 0 })
  origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`
})

after(async () => {
  // The app closes after the file (buildTestApp); the S3 server after it.
  await app?.close()
  await s3.close()
  rmSync(directory, { recursive: true, force: true })
  rmSync(uploadDir, { recursive: true, force: true })
})

async function bucketKeys(prefix = ''): Promise<string[]> {
  const store = app.store as S3ObjectStore
  const listed = await store.client.send(
    new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }),
  )
  return (listed.Contents ?? []).map((item) => item.Key!)
}

const instancePath = `/dicomweb/studies/${uids.study}/series/${uids.series}/instances/${uids.sop}`

test(`STOW-RS into an S3 bucket, then a frame and a thumbnail read back from it (${TEST_DB_KIND})`, async () => {
  const file = testInstance([
    { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
    { tag: '00080018', vr: 'UI', value: uids.sop },
    { tag: '00080060', vr: 'CS', value: 'CT' },
    { tag: '00100010', vr: 'PN', value: Buffer.from(NAME) },
    { tag: '00100020', vr: 'LO', value: ID_NUMBER },
    { tag: '0020000D', vr: 'UI', value: uids.study },
    { tag: '0020000E', vr: 'UI', value: uids.series },
    { tag: '00280010', vr: 'US', value: [SIDE] },
    { tag: '00280011', vr: 'US', value: [SIDE] },
    { tag: '7FE00010', vr: 'OB', value: PIXELS },
  ])
  const { body, contentType } = multipartBody([{ bytes: file, contentType: 'application/dicom' }])
  const stored = await fetch(`${origin}/dicomweb/studies`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${hospitalKey}`,
      'content-type': contentType,
      accept: 'application/dicom+json',
      prefer: 'wait=60',
    },
    body,
  })
  assert.equal(stored.status, 200, await stored.clone().text())

  // The original file (and its decoded pixels) are objects in the bucket, byte for byte.
  const row = await app.db
    .selectFrom('instances')
    .select(['id', 'exam_id', 'file_key', 'pixels_key'])
    .where('sop_instance_uid', '=', uids.sop)
    .executeTakeFirstOrThrow()
  const keys = await bucketKeys()
  assert.ok(keys.includes(row.file_key), `${row.file_key} in ${keys.join(', ')}`)
  if (row.pixels_key) assert.ok(keys.includes(row.pixels_key))
  const original = await app.store.get(row.file_key)
  const chunks: Buffer[] = []
  for await (const chunk of original.body as AsyncIterable<Buffer>) chunks.push(chunk)
  assert.ok(Buffer.concat(chunks).equals(file))
  // The job's staging copy of the request is gone once it is done.
  for (let i = 0; i < 40 && (await bucketKeys('staging/')).length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  assert.deepEqual(await bucketKeys('staging/'), [])

  const auth = { authorization: `Bearer ${patient.token}` }
  const frame = await fetch(`${origin}${instancePath}/frames/1`, { headers: auth })
  assert.equal(frame.status, 200)
  assert.match(frame.headers.get('content-type') ?? '', /^multipart\/related/)
  assert.ok(Buffer.from(await frame.arrayBuffer()).includes(PIXELS), 'the frame is the pixels')

  const thumbnail = await fetch(`${origin}${instancePath}/thumbnail`, { headers: auth })
  assert.equal(thumbnail.status, 200)
  assert.equal(thumbnail.headers.get('content-type'), 'image/jpeg')
  const jpeg = Buffer.from(await thumbnail.arrayBuffer())
  assert.deepEqual([...jpeg.subarray(0, 3)], [0xff, 0xd8, 0xff])
  // Rendered once, kept in the bucket: the next read is the cached object.
  const previews = await bucketKeys(previewKeyPrefix(row.exam_id))
  assert.ok(previews.length > 0, 'the thumbnail is cached in the bucket')
  const again = await fetch(`${origin}${instancePath}/thumbnail`, { headers: auth })
  assert.equal(again.status, 200)
  assert.ok(Buffer.from(await again.arrayBuffer()).equals(jpeg))

  // Nobody else reads it.
  const stranger = await signUp(app.db, new Date())
  const refused = await fetch(`${origin}${instancePath}/thumbnail`, {
    headers: { authorization: `Bearer ${stranger.token}` },
  })
  assert.equal(refused.status, 404)
  // Everything went to the bucket, nothing to the local object folder.
  assert.equal(existsSync(path.join(uploadDir, LOCAL_STORE_DIR)), false)
})
