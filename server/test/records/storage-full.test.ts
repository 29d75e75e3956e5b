import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import { REASONS } from '@contract/reasons'
import { encodeJpeg } from '../../src/dicom/codecs'
import { buildApp } from '../../src/app'
import { addHospital, issueHospitalKey } from '../../src/domain/hospitals'
import { STORAGE_FULL } from '../../src/http/errors'
import { LOCAL_STORE_DIR, LocalObjectStore, type ObjectStore } from '../../src/storage'
import { testInstance } from '../dicom/writer'
import { multipartBody } from '../dicomweb/stow-support'
import { bearer } from '../domain/profile/support'
import { closeAfter, TEST_DB_KIND, testConfig } from '../helpers'
import {
  call,
  daikonFiles,
  daikonZip,
  patient,
  postChunk,
  putChunk,
  sendFiles,
  sendZip,
  settled,
  storedKeys,
  usage,
  type UploadWorld,
} from './upload-support'

/*
 * A full disk (ENOSPC, as the file system reports it) at each write point of what people and
 * hospitals send: a STOW-RS body arriving, its ingest job, a chunk of a resumable upload, the zip
 * (or several files) being stored, a report photo, a feedback picture. Each answers 507 with
 * 存储空间已满… (never the 500 服务器繁忙), logs one error line naming the fault for the operator,
 * fails a job at once instead of retrying it for seconds, and leaves nothing half-stored. The real
 * small file system is in test/storage/full-disk.test.ts.
 */

const PATIENT_NAME = 'Zhang^Sanfeng'

/** Every 507: the text for people in `message`, and the reason code acts on (issue 19 §2). */
const FULL_ENVELOPE = {
  code: 507,
  message: STORAGE_FULL,
  data: null,
  error: null,
  reason: REASONS.storageFull,
}

/** The error the file system gives for a write to a full disk. */
function enospc(): NodeJS.ErrnoException {
  return Object.assign(new Error('ENOSPC: no space left on device, write'), {
    errno: -28,
    code: 'ENOSPC',
    syscall: 'write',
  })
}

/** The local store, except that puts (and flushes) of keys `full` matches fail with ENOSPC. */
function fullFor(store: ObjectStore, state: { full: RegExp | null }): ObjectStore {
  const refuses = (key: string) => state.full?.test(key) ?? false
  return {
    kind: store.kind,
    put: async (key, body, options) => {
      if (refuses(key)) {
        // As a write does: whatever of a stream was sent is read up to the failure.
        if (!Buffer.isBuffer(body) && !(body instanceof Uint8Array)) {
          for await (const chunk of body) void chunk
        }
        throw enospc()
      }
      return store.put(key, body, options)
    },
    sync: async (keys) => {
      if (keys.some(refuses)) throw enospc()
      return store.sync(keys)
    },
    get: (key, options) => store.get(key, options),
    head: (key) => store.head(key),
    exists: (key) => store.exists(key),
    delete: (key) => store.delete(key),
    deletePrefix: (prefix) => store.deletePrefix(prefix),
  }
}

interface LogLine {
  level: number
  msg: string
  [field: string]: unknown
}

describe(`a full disk at every write point (${TEST_DB_KIND})`, async () => {
  const disk: { full: RegExp | null } = { full: null }
  const lines: string[] = []
  const uploadDir = mkdtempSync(path.join(os.tmpdir(), 'storage-full-'))
  after(() => rmSync(uploadDir, { recursive: true, force: true }))
  const local = new LocalObjectStore(path.join(uploadDir, LOCAL_STORE_DIR))
  const app = await buildApp(testConfig({ uploadDir, logLevel: 'info' }), {
    store: fullFor(local, disk),
    logStream: { write: (line) => void lines.push(line) },
  })
  closeAfter(() => app.close())
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  const world: UploadWorld = { app, uploadDir }
  const now = new Date()
  const hospital = await addHospital(app.db, { name: `满盘测试医院 ${randomUUID()}` }, now)
  const hospitalKey = (await issueHospitalKey(app.db, hospital.id, now)).key

  /** What the log said since `from`, parsed. */
  const logSince = (from: number): LogLine[] =>
    lines.slice(from).map((line) => JSON.parse(line) as LogLine)

  /** The operator's alarm: exactly one error line, naming the fault, without keys or names. */
  function assertOneAlarm(from: number, what: string): void {
    const errors = logSince(from).filter((line) => line.level >= 50)
    assert.equal(errors.length, 1, `${what}: ${JSON.stringify(errors)}`)
    const [alarm] = errors
    assert.equal(alarm!.msg, 'storage full', what)
    assert.equal(alarm!.code, 'ENOSPC', what)
    assert.equal(typeof alarm!.storage, 'string', what)
    const text = JSON.stringify(alarm)
    for (const secret of ['staging/', 'objects/', 'exam-files/', 'feedback/', PATIENT_NAME]) {
      assert.equal(text.includes(secret), false, `${what}: the alarm names ${secret}`)
    }
  }

  let uids = 0
  function instance(study: string): Buffer {
    uids += 1
    return testInstance([
      { tag: '00100010', vr: 'PN', value: PATIENT_NAME },
      { tag: '0020000D', vr: 'UI', value: study },
      { tag: '0020000E', vr: 'UI', value: `${study}.1` },
      { tag: '00080018', vr: 'UI', value: `${study}.1.${uids}` },
      { tag: '00280010', vr: 'US', value: [64] },
      { tag: '00280011', vr: 'US', value: [64] },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [12] },
      { tag: '00280102', vr: 'US', value: [11] },
      { tag: '7FE00010', vr: 'OW', value: new Uint8Array(64 * 64 * 2).fill(3) },
    ])
  }
  const newStudy = () => `1.2.826.0.1.3680043.10.88.${process.pid}.${Date.now()}.${uids + 1}`

  async function push(study: string, headers: Record<string, string> = {}) {
    const { body, contentType } = multipartBody(
      [1, 2, 3].map(() => ({ bytes: instance(study), contentType: 'application/dicom' })),
    )
    const started = Date.now()
    const res = await fetch(`${url}/dicomweb/studies`, {
      method: 'POST',
      headers: {
        'content-type': contentType,
        authorization: `Bearer ${hospitalKey}`,
        ...headers,
      },
      body,
    })
    return {
      status: res.status,
      json: (await res.json()) as Record<string, unknown>,
      elapsedMs: Date.now() - started,
    }
  }

  const latestStowJob = () =>
    app.db
      .selectFrom('ingest_jobs')
      .selectAll()
      .where('kind', '=', 'stow')
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow()

  const examsOf = (study: string) =>
    app.db.selectFrom('exams').select('id').where('study_uid', '=', study).execute()

  /** Staging goes just after a job ends: allow it a moment. */
  async function eventually(check: () => boolean, what: string): Promise<void> {
    for (let i = 0; i < 60 && !check(); i++) await new Promise((r) => setTimeout(r, 50))
    assert.ok(check(), what)
  }

  test('STOW: the disk fills while the body arrives → 507 storage full, nothing staged, the job cancelled with the reason', async () => {
    const from = lines.length
    const study = newStudy()
    disk.full = /^staging\//
    const res = await push(study)
    disk.full = null
    assert.equal(res.status, 507)
    assert.deepEqual(res.json, FULL_ENVELOPE)
    const job = await latestStowJob()
    assert.equal(job.status, 'cancelled')
    assert.equal(job.message, STORAGE_FULL)
    assert.equal(job.reason, REASONS.storageFull)
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(job.staging_prefix)),
      [],
    )
    assert.deepEqual(await examsOf(study), [])
    assertOneAlarm(from, 'STOW receiving')
    // The job's own address says the same.
    const again = await fetch(`${url}/dicomweb/stow-jobs/${job.id}`, {
      headers: { authorization: `Bearer ${hospitalKey}` },
    })
    assert.equal(again.status, 507)
    assert.deepEqual(await again.json(), FULL_ENVELOPE)
    // Room again: the same push is stored.
    const retried = await push(study)
    assert.equal(retried.status, 200, JSON.stringify(retried.json))
  })

  test('STOW: the disk fills while the job stores → 507 at once, one attempt (no retries for seconds), nothing stored', async () => {
    const from = lines.length
    const study = newStudy()
    disk.full = /^objects\//
    const res = await push(study, { prefer: 'wait=30' })
    disk.full = null
    assert.equal(res.status, 507, JSON.stringify(res.json))
    assert.deepEqual(res.json, FULL_ENVELOPE)
    // Retried as a passing fault (2 s, then 8 s) it took over 10 s and ended a 503 saying nothing.
    assert.ok(res.elapsedMs < 5_000, `answered after ${res.elapsedMs} ms`)
    const job = await latestStowJob()
    assert.equal(job.status, 'failed')
    assert.equal(job.message, STORAGE_FULL)
    assert.equal(job.reason, REASONS.storageFull)
    assert.equal(job.attempts, 1)
    assert.deepEqual(await examsOf(study), [])
    await eventually(
      () =>
        !storedKeys(world).some(
          (key) => key.startsWith(job.staging_prefix) || key.startsWith(`objects/${job.id}`),
        ),
      'staging and the attempt’s objects are removed',
    )
    assertOneAlarm(from, 'STOW ingest')
    const polled = await fetch(`${url}/dicomweb/stow-jobs/${job.id}`, {
      headers: { authorization: `Bearer ${hospitalKey}` },
    })
    assert.equal(polled.status, 507)
  })

  test('chunk upload: 507, the chunk not kept, and the upload goes on from the same offset once there is room', async () => {
    const user = await patient(world)
    const zip = daikonZip()
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: '满盘.zip',
      size: zip.length,
    })
    assert.equal(started.statusCode, 200)
    const { uploadId } = started.body.data as { uploadId: string }
    const first = zip.subarray(0, Math.min(zip.length, 4 * 1024 * 1024))

    disk.full = /^staging\/uploads\//
    for (const send of [putChunk, postChunk]) {
      const from = lines.length
      const refused = await send(world, user, uploadId, 0, first)
      assert.equal(refused.statusCode, 507, send.name)
      assert.deepEqual(refused.body, FULL_ENVELOPE)
      assertOneAlarm(from, `chunk by ${send.name}`)
    }
    disk.full = null
    const state = await call(world, user, 'GET', `/main/dicom-upload/${uploadId}`)
    assert.equal((state.body.data as { receivedBytes: number }).receivedBytes, 0)
    assert.equal((state.body.data as { status: string }).status, 'receiving')
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`staging/uploads/${uploadId}/`)),
      [],
    )

    for (let offset = 0; offset < zip.length; offset += 4 * 1024 * 1024) {
      const put = await putChunk(
        world,
        user,
        uploadId,
        offset,
        zip.subarray(offset, offset + 4 * 1024 * 1024),
      )
      assert.equal(put.statusCode, 200, JSON.stringify(put.body))
    }
    await call(world, user, 'POST', `/main/dicom-upload/${uploadId}/finish`)
    const done = await settled(world, user, uploadId)
    assert.equal(done.status, 'ready', done.message ?? '')
  })

  test('zip and several-files processing: failed at once with the reason, nothing stored, the quota back', async () => {
    const user = await patient(world)
    for (const send of [
      () => sendZip(world, user, daikonZip()),
      () => sendFiles(world, user, daikonFiles('满盘文件夹')),
    ]) {
      const from = lines.length
      disk.full = /^objects\//
      const sent = await send()
      const state = await settled(world, user, sent.uploadId)
      disk.full = null
      assert.equal(state.status, 'failed')
      assert.equal(state.message, STORAGE_FULL)
      const job = await app.db
        .selectFrom('ingest_jobs')
        .select(['attempts'])
        .where('id', '=', sent.uploadId)
        .executeTakeFirstOrThrow()
      assert.equal(job.attempts, 1)
      assert.equal(await usage(world, user), 0)
      const exams = await app.db
        .selectFrom('exams')
        .select('id')
        .where('owner_user_id', '=', user.user.id)
        .execute()
      assert.deepEqual(exams, [])
      await eventually(
        () =>
          !storedKeys(world).some(
            (key) =>
              key.startsWith(`staging/uploads/${sent.uploadId}/`) ||
              key.startsWith(`objects/${sent.uploadId}`),
          ),
        'chunks and the attempt’s objects are removed',
      )
      assertOneAlarm(from, 'upload processing')
    }
  })

  test('report photo: 507, no photo kept, the quota as it was', async () => {
    const user = await patient(world)
    const ready = await settled(world, user, (await sendZip(world, user, daikonZip())).uploadId)
    assert.equal(ready.status, 'ready', ready.message ?? '')
    const examId = ready.examIds[0]!
    const used = await usage(world, user)
    const pixels = new Uint8Array(96 * 96 * 3).fill(200)
    const jpeg = Buffer.from(await encodeJpeg(pixels, 96, 96, 3, 90))
    const boundary = '----full-photo'
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const from = lines.length
    disk.full = /^exam-files\//
    const res = await app.inject({
      method: 'POST',
      url: `/main/dicom-upload/exams/${examId}/photos`,
      headers: {
        ...bearer(user.token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    })
    disk.full = null
    assert.equal(res.statusCode, 507)
    assert.equal(res.json<{ message: string }>().message, STORAGE_FULL)
    assertOneAlarm(from, 'report photo')
    const rows = await app.db
      .selectFrom('exam_files')
      .select('id')
      .where('exam_id', '=', examId)
      .execute()
    assert.deepEqual(rows, [])
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`exam-files/${examId}/`)),
      [],
    )
    assert.equal(await usage(world, user), used)
  })

  test('feedback picture: 507, nothing kept', async () => {
    const user = await patient(world)
    const pixels = new Uint8Array(64 * 64 * 3).fill(120)
    const jpeg = Buffer.from(await encodeJpeg(pixels, 64, 64, 3, 90))
    const boundary = '----full-feedback'
    const payload = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const from = lines.length
    disk.full = /^feedback\//
    const res = await app.inject({
      method: 'POST',
      url: '/main/feedback/images',
      headers: {
        ...bearer(user.token),
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload,
    })
    disk.full = null
    assert.equal(res.statusCode, 507)
    assert.equal(res.json<{ message: string }>().message, STORAGE_FULL)
    assertOneAlarm(from, 'feedback picture')
    const rows = await app.db
      .selectFrom('content_files')
      .select('id')
      .where('uploaded_by_user_id', '=', user.user.id)
      .execute()
    assert.deepEqual(rows, [])
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`feedback/${user.user.id}/`)),
      [],
    )
  })
})
