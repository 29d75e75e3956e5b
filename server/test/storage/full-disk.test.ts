import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes, randomUUID } from 'node:crypto'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { Readable } from 'node:stream'
import { after, describe, test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { encodeJpeg } from '../../src/dicom/codecs'
import { buildApp } from '../../src/app'
import { addHospital, issueHospitalKey } from '../../src/domain/hospitals'
import { STORAGE_FULL } from '../../src/http/errors'
import { LocalObjectStore, StorageFullError } from '../../src/storage'
import { testInstance } from '../dicom/writer'
import { multipartBody } from '../dicomweb/stow-support'
import { bearer } from '../domain/profile/support'
import { closeAfter, TEST_DB_KIND, testConfig } from '../helpers'
import {
  call,
  patient,
  putChunk,
  sendZip,
  settled,
  usage,
  type UploadWorld,
} from '../records/upload-support'
import { writeZip } from '../records/zip-writer'

/*
 * A real file system that fills up: tmpfs mounts of a few MB (the store's and the upload scratch
 * folder's), filled with a filler file until only so much room is left. The local store's put,
 * then the app's write points (STOW body, chunk, upload processing, its scratch file, report photo,
 * avatar) meet a true ENOSPC: 507 存储空间已满, an error line naming the full storage, nothing half-
 * written left behind (no temporary .part, no sidecar, no cut-short avatar). Mounting needs root;
 * where it is not permitted every test here is skipped with the reason, never passed.
 */

const base = mkdtempSync(path.join(os.tmpdir(), 'full-disk-'))
const disk = path.join(base, 'disk')
const scratch = path.join(base, 'scratch')

function mountTmpfs(dir: string, size: string): string | undefined {
  mkdirSync(dir, { recursive: true })
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' })
    return undefined
  } catch (error) {
    const said = String((error as { stderr?: Buffer }).stderr ?? (error as Error).message)
      .trim()
      .split('\n')[0]
    return `cannot mount a small tmpfs here (${said || 'mount failed'}); run as root to test a real full disk`
  }
}

const skip = mountTmpfs(disk, '16m') ?? mountTmpfs(scratch, '1m')
after(() => {
  for (const dir of [scratch, disk]) {
    try {
      execFileSync('umount', ['-l', dir], { stdio: 'ignore' })
    } catch {
      // not mounted (skipped) or already gone
    }
  }
  rmSync(base, { recursive: true, force: true })
})

const filler = path.join(disk, 'filler')

/** Fills the disk until about `bytes` are left (tmpfs counts whole pages). */
function leaveFree(bytes: number): void {
  rmSync(filler, { force: true })
  const stats = statfsSync(disk)
  const free = stats.bavail * stats.bsize
  if (free > bytes) writeFileSync(filler, Buffer.alloc(free - bytes))
}

/** Every file under `dir` (relative paths), dot files included. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => statSync(path.join(dir, name)).isFile())
    .sort()
}

const MB = 1024 * 1024

describe(`a real full disk (${TEST_DB_KIND})`, { skip }, () => {
  test('the local store: a put that does not fit is StorageFullError naming the store, and leaves no trace', async () => {
    const root = path.join(disk, 'store')
    const store = new LocalObjectStore(root)
    await store.put('before/kept', Buffer.from('kept'), { contentType: 'text/plain' })
    leaveFree(MB)
    const big = randomBytes(2 * MB)
    const attempts = [
      () => store.put('full/buffer', big, { contentType: 'application/dicom' }),
      () =>
        store.put('full/stream', Readable.from([big.subarray(0, MB), big.subarray(MB)]), {
          contentType: 'application/dicom',
        }),
    ]
    for (const attempt of attempts) {
      await assert.rejects(attempt(), (error: unknown) => {
        assert.ok(error instanceof StorageFullError, String(error))
        assert.equal(error.code, 'ENOSPC')
        assert.equal(error.storage, `local ${root}`)
        return true
      })
    }
    // Only the object stored before: no temporary file, no content-type sidecar of the failures.
    assert.deepEqual(filesUnder(root), ['before/.kept.meta', 'before/kept'])
    leaveFree(4 * MB)
    await store.put('full/buffer', big, { contentType: 'application/dicom' })
    assert.equal((await store.head('full/buffer'))?.size, big.length)
  })

  describe('the app on it', async () => {
    if (skip) return
    const uploadDir = path.join(disk, 'app')
    const objects = path.join(uploadDir, '.objects')
    const lines: string[] = []
    leaveFree(12 * MB)
    const app: FastifyInstance = await buildApp(testConfig({ uploadDir, logLevel: 'info' }), {
      logStream: { write: (line) => void lines.push(line) },
    })
    closeAfter(() => app.close())
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
    const world: UploadWorld = { app, uploadDir }
    const hospital = await addHospital(app.db, { name: `满盘医院 ${randomUUID()}` }, new Date())
    const key = (await issueHospitalKey(app.db, hospital.id, new Date())).key

    /** The one error line since `from`: storage full, naming `storage`. */
    function assertAlarm(from: number, storage: string): void {
      const errors = lines
        .slice(from)
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter((line) => Number(line.level) >= 50)
      assert.equal(errors.length, 1, JSON.stringify(errors))
      assert.equal(errors[0]!.msg, 'storage full')
      assert.equal(errors[0]!.code, 'ENOSPC')
      assert.equal(errors[0]!.storage, storage)
    }

    let serial = 0
    /** A zip of `count` instances of 256 KB random (incompressible) pixels. */
    function zipOf(count: number): Buffer {
      const study = `1.2.826.0.1.3680043.10.66.${process.pid}.${++serial}`
      return writeZip(
        Array.from({ length: count }, (_, i) => ({
          name: `${i}.dcm`,
          method: 0,
          data: testInstance([
            { tag: '0020000D', vr: 'UI', value: study },
            { tag: '0020000E', vr: 'UI', value: `${study}.1` },
            { tag: '00080018', vr: 'UI', value: `${study}.1.${i}` },
            { tag: '00280010', vr: 'US', value: [256] },
            { tag: '00280011', vr: 'US', value: [512] },
            { tag: '7FE00010', vr: 'OB', value: new Uint8Array(randomBytes(256 * 512)) },
          ]),
        })),
      )
    }

    test('a 4 MB chunk on a disk with 1 MB left: 507, the chunk not kept, nothing half-written', async () => {
      const user = await patient(world)
      const started = await call(world, user, 'POST', '/main/dicom-upload', {
        fileName: '满盘.zip',
        size: 5 * MB,
      })
      assert.equal(started.statusCode, 200)
      const { uploadId } = started.body.data as { uploadId: string }
      leaveFree(MB)
      const from = lines.length
      const res = await putChunk(world, user, uploadId, 0, randomBytes(4 * MB))
      assert.equal(res.statusCode, 507)
      assert.equal(res.body.message, STORAGE_FULL)
      assertAlarm(from, `local ${objects}`)
      assert.deepEqual(filesUnder(objects), [])
    })

    test('a STOW push larger than the room left: 507, nothing staged', async () => {
      leaveFree(MB)
      const study = `1.2.826.0.1.3680043.10.67.${process.pid}`
      const { body, contentType } = multipartBody([
        {
          bytes: testInstance([
            { tag: '0020000D', vr: 'UI', value: study },
            { tag: '00080018', vr: 'UI', value: `${study}.1` },
            { tag: '7FE00010', vr: 'OB', value: new Uint8Array(randomBytes(2 * MB)) },
          ]),
          contentType: 'application/dicom',
        },
      ])
      const from = lines.length
      const res = await fetch(`${url}/dicomweb/studies`, {
        method: 'POST',
        headers: { 'content-type': contentType, authorization: `Bearer ${key}` },
        body,
      })
      assert.equal(res.status, 507)
      assert.equal(((await res.json()) as { message: string }).message, STORAGE_FULL)
      assertAlarm(from, `local ${objects}`)
      assert.deepEqual(filesUnder(objects), [])
    })

    test('an upload whose chunks fit but whose studies do not: failed at once, nothing stored, the quota back', async () => {
      const user = await patient(world)
      const zip = zipOf(8)
      // The chunks (the zip's size) fit; its files and their decoded pixels (twice that) do not.
      leaveFree(zip.length + 512 * 1024)
      const from = lines.length
      const sent = await sendZip(world, user, zip)
      const state = await settled(world, user, sent.uploadId)
      assert.equal(state.status, 'failed')
      assert.equal(state.message, STORAGE_FULL)
      const job = await app.db
        .selectFrom('ingest_jobs')
        .select('attempts')
        .where('id', '=', sent.uploadId)
        .executeTakeFirstOrThrow()
      assert.equal(job.attempts, 1)
      assert.equal(await usage(world, user), 0)
      assertAlarm(from, `local ${objects}`)
      assert.deepEqual(filesUnder(objects), [])
    })

    test('an upload whose scratch copy does not fit: failed at once, naming the scratch folder', async () => {
      const user = await patient(world)
      const zip = zipOf(12)
      assert.ok(zip.length > MB)
      leaveFree(12 * MB)
      const saved = process.env.TMPDIR
      process.env.TMPDIR = scratch
      try {
        const from = lines.length
        const sent = await sendZip(world, user, zip)
        const state = await settled(world, user, sent.uploadId)
        assert.equal(state.status, 'failed')
        assert.equal(state.message, STORAGE_FULL)
        assertAlarm(from, `scratch ${scratch}`)
        assert.deepEqual(filesUnder(scratch), [])
        assert.equal(await usage(world, user), 0)
      } finally {
        if (saved === undefined) delete process.env.TMPDIR
        else process.env.TMPDIR = saved
      }
    })

    test('a report photo on a full disk: 507, no photo kept', async () => {
      const user = await patient(world)
      leaveFree(12 * MB)
      const ready = await settled(world, user, (await sendZip(world, user, zipOf(1))).uploadId)
      assert.equal(ready.status, 'ready', ready.message ?? '')
      const examId = ready.examIds[0]!
      const keysBefore = filesUnder(objects)
      const noise = new Uint8Array(randomBytes(800 * 800 * 3))
      const jpeg = Buffer.from(await encodeJpeg(noise, 800, 800, 3, 90))
      const boundary = '----full-disk-photo'
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
        ),
        jpeg,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      leaveFree(64 * 1024)
      const from = lines.length
      const res = await app.inject({
        method: 'POST',
        url: `/main/dicom-upload/exams/${examId}/photos`,
        headers: {
          ...bearer(user.token),
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      })
      assert.equal(res.statusCode, 507)
      assertAlarm(from, `local ${objects}`)
      assert.deepEqual(filesUnder(objects), keysBefore)
      const rows = await app.db
        .selectFrom('exam_files')
        .select('id')
        .where('exam_id', '=', examId)
        .execute()
      assert.deepEqual(rows, [])
    })

    test('an avatar on a full disk: 507, no cut-short file left under /uploads', async () => {
      const user = await patient(world)
      // A PNG by its first bytes (all the avatar check reads), 1.5 MB, with 256 KB left.
      const png = Buffer.concat([
        Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        randomBytes(1.5 * MB),
      ])
      const boundary = '----full-disk-avatar'
      const payload = Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        png,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ])
      leaveFree(256 * 1024)
      const from = lines.length
      const res = await app.inject({
        method: 'POST',
        url: '/main/upload/avatar',
        headers: {
          ...bearer(user.token),
          'content-type': `multipart/form-data; boundary=${boundary}`,
        },
        payload,
      })
      assert.equal(res.statusCode, 507)
      assert.equal(res.json<{ message: string }>().message, STORAGE_FULL)
      assertAlarm(from, `uploads ${uploadDir}`)
      assert.deepEqual(filesUnder(path.join(uploadDir, 'avatars')), [])
    })
  })
})
