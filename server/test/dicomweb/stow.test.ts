import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, test } from 'node:test'
import { JOB_WORKER_LOST } from '../../src/jobs/runner'
import { STOW_LIMITS } from '../../src/routes/dicomweb/stow'
import { testInstance } from '../dicom/writer'
import {
  arrayBufferOf,
  type Json,
  multipartBody,
  SAMPLES,
  sampleBytes,
  sequence,
  type StowContext,
  stowContext,
  valueOf,
} from './stow-support'

/*
 * STOW-RS through real HTTP: dicomweb-client's storeInstances (xhr2), every transfer syntax of the
 * sample set, duplicates stored once, the PS3.18 answer (200/202/409, Referenced/FailedSOPSequence),
 * the asynchronous answer, and Chinese refusals of malformed bodies that leave nothing behind.
 * Runs on both databases (scripts/test-server.ts --pg).
 */

let ctx: StowContext
before(async () => {
  ctx = await stowContext()
})

const REFERENCED = '00081199'
const FAILED = '00081198'
const RETRIEVE_URL = '00081190'
const SOP_INSTANCE = '00081155'
const FAILURE_REASON = '00081197'

async function post(
  body: Buffer,
  contentType: string,
  options: { path?: string; key?: string; headers?: Record<string, string> } = {},
) {
  const res = await fetch(`${ctx.url}${options.path ?? '/dicomweb/studies'}`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      authorization: `Bearer ${options.key ?? ctx.key}`,
      ...options.headers,
    },
    body,
  })
  const text = await res.text()
  return { status: res.status, headers: res.headers, json: text ? (JSON.parse(text) as Json) : {} }
}

/** Staging goes just after a job's row says done: allow it a moment. */
async function stagingLeft(): Promise<number> {
  for (let i = 0; i < 40 && (await stagingCount()) > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return stagingCount()
}

async function stagingCount(): Promise<number> {
  // Every job's staging prefix is under staging/stow/; none may outlive its request or job.
  const jobs = await ctx.app.db.selectFrom('ingest_jobs').select('staging_prefix').execute()
  let left = 0
  for (const job of jobs) {
    for (let part = 0; part < 20; part++) {
      if (await ctx.app.store.exists(`${job.staging_prefix}${part}`)) left += 1
    }
  }
  return left
}

test('dicomweb-client stores every sample transfer syntax; each lands once, decoded', async () => {
  const datasets = SAMPLES.map((sample) => arrayBufferOf(sampleBytes(sample.file)))
  // Thirteen files (one of 96 JPEG frames) take longer than the default wait on this machine: the
  // client asks to wait for the outcome (RFC 7240), as a batch sender would.
  const client = ctx.client(ctx.key, { Prefer: 'wait=60' })
  const response = (await client.storeInstances({ datasets })) as string
  const body = JSON.parse(response) as Json
  const referenced = sequence(body, REFERENCED)
  assert.equal(referenced.length, SAMPLES.length)
  assert.equal(body[FAILED], undefined)

  const rows = await ctx.app.db
    .selectFrom('instances')
    .innerJoin('exams', 'exams.id', 'instances.exam_id')
    .select(['instances.sop_instance_uid', 'instances.transfer_syntax', 'instances.preview_status'])
    .where('exams.hospital_id', '=', ctx.hospitalId)
    .execute()
  assert.equal(rows.length, SAMPLES.length)
  assert.deepEqual(
    rows.map((row) => row.transfer_syntax).sort(),
    SAMPLES.map((sample) => sample.syntax).sort(),
  )
  // Every answered instance is one we hold, with a RetrieveURL under our DICOMweb base.
  const held = new Set(rows.map((row) => row.sop_instance_uid))
  for (const item of referenced) {
    assert.ok(held.has(valueOf(item, SOP_INSTANCE) as string))
    assert.match(
      String(valueOf(item, RETRIEVE_URL)),
      new RegExp(`^${ctx.url}/dicomweb/studies/[0-9.]+/series/[0-9.]+/instances/[0-9.]+$`),
    )
  }
  // The sample set decodes (the dicom module's own tests say how well); none is left unsupported.
  assert.deepEqual(
    rows.filter((row) => row.preview_status !== 'ready').map((row) => row.transfer_syntax),
    [],
  )
  assert.equal(await stagingLeft(), 0)
})

test('the same instances pushed again are referenced, not stored twice', async () => {
  const files = SAMPLES.slice(0, 3).map((sample) => sampleBytes(sample.file))
  const { body, contentType } = multipartBody(
    files.map((bytes) => ({ bytes, contentType: 'application/dicom' })),
  )
  const before = await countInstances()
  // One request holding a file twice, then the whole request again.
  const doubled = multipartBody(
    [...files, files[0]!].map((bytes) => ({ bytes, contentType: 'application/dicom' })),
  )
  const first = await post(doubled.body, doubled.contentType)
  assert.equal(first.status, 200)
  assert.equal(sequence(first.json, REFERENCED).length, 4)
  const again = await post(body, contentType)
  assert.equal(again.status, 200)
  assert.equal(sequence(again.json, REFERENCED).length, 3)
  assert.equal(await countInstances(), before)
  const job = await lastJob()
  assert.equal(job.duplicate_count, 3)
  assert.equal(job.stored_count, 0)
})

async function countInstances(): Promise<number> {
  const row = await ctx.app.db
    .selectFrom('instances')
    .innerJoin('exams', 'exams.id', 'instances.exam_id')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('exams.hospital_id', '=', ctx.hospitalId)
    .executeTakeFirstOrThrow()
  return Number(row.n)
}

async function lastJob() {
  return ctx.app.db
    .selectFrom('ingest_jobs')
    .selectAll()
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirstOrThrow()
}

const uid = () => `1.2.826.0.1.3680043.10.99.${Date.now()}.${Math.floor(Math.random() * 1e9)}`

function instanceOf(study: string, sop = uid()) {
  return testInstance([
    { tag: '0020000D', vr: 'UI', value: study },
    { tag: '0020000E', vr: 'UI', value: `${study}.1` },
    { tag: '00080018', vr: 'UI', value: sop },
  ])
}

test('a part that is not DICOM fails alone: 202 with its FailureReason, the others stored', async () => {
  const study = uid()
  const { body, contentType } = multipartBody([
    { bytes: instanceOf(study), contentType: 'application/dicom' },
    { bytes: Buffer.from('这不是 DICOM 文件'), contentType: 'application/dicom' },
    { bytes: instanceOf(study), contentType: 'application/dicom' },
  ])
  const res = await post(body, contentType)
  assert.equal(res.status, 202)
  assert.equal(sequence(res.json, REFERENCED).length, 2)
  const failed = sequence(res.json, FAILED)
  assert.equal(failed.length, 1)
  assert.equal(valueOf(failed[0]!, FAILURE_REASON), 0xc000)
  assert.equal(valueOf(res.json, RETRIEVE_URL), `${ctx.url}/dicomweb/studies/${study}`)
  const job = await lastJob()
  assert.equal(job.message, '已存储 2 个实例，1 个未能存储')
})

test('POST /studies/{study}: an instance of another study is refused (409 when none is stored)', async () => {
  const study = uid()
  const { body, contentType } = multipartBody([
    { bytes: instanceOf(uid()), contentType: 'application/dicom' },
  ])
  const res = await post(body, contentType, { path: `/dicomweb/studies/${study}` })
  assert.equal(res.status, 409)
  assert.equal(valueOf(sequence(res.json, FAILED)[0]!, FAILURE_REASON), 0xc409)
  assert.equal(res.json[REFERENCED], undefined)
  const exam = await ctx.app.db
    .selectFrom('exams')
    .select('id')
    .where('study_uid', '=', study)
    .executeTakeFirst()
  assert.equal(exam, undefined)

  // The matching study is stored through the same path.
  const ok = multipartBody([{ bytes: instanceOf(study), contentType: 'application/dicom' }])
  const stored = await post(ok.body, ok.contentType, { path: `/dicomweb/studies/${study}` })
  assert.equal(stored.status, 200)
})

test('Prefer: respond-async answers 202 at once; the job URL gives the PS3.18 answer later', async () => {
  const study = uid()
  const { body, contentType } = multipartBody([
    { bytes: instanceOf(study), contentType: 'application/dicom' },
  ])
  const res = await post(body, contentType, { headers: { prefer: 'respond-async' } })
  assert.equal(res.status, 202)
  const location = res.headers.get('content-location')
  assert.match(location ?? '', /^\/dicomweb\/stow-jobs\/[0-9a-f-]{36}$/)
  assert.match(res.headers.get('warning') ?? '', /^299 /)

  let outcome = await fetch(`${ctx.url}${location}`, {
    headers: { authorization: `Bearer ${ctx.key}` },
  })
  for (let i = 0; i < 100 && outcome.status === 202; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100))
    outcome = await fetch(`${ctx.url}${location}`, {
      headers: { authorization: `Bearer ${ctx.key}` },
    })
  }
  assert.equal(outcome.status, 200)
  const json = (await outcome.json()) as Json
  assert.equal(sequence(json, REFERENCED).length, 1)

  // Another hospital's key does not learn of it.
  const foreign = await fetch(`${ctx.url}${location}`, {
    headers: { authorization: `Bearer ${ctx.otherKey}` },
  })
  assert.equal(foreign.status, 404)
})

test('without a hospital key: 401 in Chinese, nothing received', async () => {
  const { body, contentType } = multipartBody([{ bytes: instanceOf(uid()) }])
  const jobsBefore = await ctx.app.db.selectFrom('ingest_jobs').select('id').execute()
  const res = await fetch(`${ctx.url}/dicomweb/studies`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body,
  })
  assert.equal(res.status, 401)
  assert.match(((await res.json()) as { error: string }).error, /医院 API 密钥/)
  const jobsAfter = await ctx.app.db.selectFrom('ingest_jobs').select('id').execute()
  assert.equal(jobsAfter.length, jobsBefore.length)
})

test('malformed bodies: a Chinese 400/413/415, no staging left, the job cancelled', async () => {
  const instance = instanceOf(uid())
  const good = multipartBody([{ bytes: instance, contentType: 'application/dicom' }], 'bnd')
  const cases: { name: string; body: Buffer; type: string; status: number; error: RegExp }[] = [
    {
      name: 'no boundary',
      body: good.body,
      type: 'multipart/related; type="application/dicom"',
      status: 400,
      error: /缺少 boundary/,
    },
    {
      name: 'JSON instead of multipart',
      body: Buffer.from('{}'),
      type: 'application/json',
      status: 415,
      error: /multipart\/related/,
    },
    {
      name: 'metadata+bulk data (application/dicom+json parts)',
      body: good.body,
      type: 'multipart/related; type="application/dicom+json"; boundary=bnd',
      status: 415,
      error: /application\/dicom/,
    },
    {
      name: 'cut off before the closing delimiter',
      body: good.body.subarray(0, good.body.length - 20),
      type: good.contentType,
      status: 400,
      error: /请求体不完整/,
    },
    {
      name: 'no delimiter at all',
      body: Buffer.from('hello'),
      type: good.contentType,
      status: 400,
      error: /找不到第一个分隔符/,
    },
    {
      name: 'no parts',
      body: Buffer.from('--bnd--\r\n'),
      type: good.contentType,
      status: 400,
      error: /没有任何部分/,
    },
    {
      name: 'a header line without a colon',
      body: Buffer.concat([
        Buffer.from('--bnd\r\nnot a header\r\n\r\n'),
        instance,
        Buffer.from('\r\n--bnd--'),
      ]),
      type: good.contentType,
      status: 400,
      error: /头部无法解析/,
    },
  ]
  for (const item of cases) {
    const jobsBefore = await ctx.app.db.selectFrom('ingest_jobs').select('id').execute()
    const res = await post(item.body, item.type)
    assert.equal(res.status, item.status, item.name)
    assert.match(String((res.json as { error?: string }).error), item.error, item.name)
    const jobsAfter = await ctx.app.db.selectFrom('ingest_jobs').select(['id', 'status']).execute()
    const added = jobsAfter.filter((job) => !jobsBefore.some((b) => b.id === job.id))
    // Refused before reading: no job; refused while reading: a cancelled one.
    assert.ok(
      added.every((job) => job.status === 'cancelled'),
      item.name,
    )
  }
  assert.equal(await stagingLeft(), 0)
})

test('limits: too many parts or too large a part is a 413 in Chinese', async () => {
  const saved = { ...STOW_LIMITS }
  try {
    STOW_LIMITS.maxParts = 2
    const three = multipartBody(
      [1, 2, 3].map(() => ({ bytes: instanceOf(uid()), contentType: 'application/dicom' })),
    )
    const many = await post(three.body, three.contentType)
    assert.equal(many.status, 413)
    assert.match(String((many.json as { error?: string }).error), /最多包含 2 个实例/)

    STOW_LIMITS.maxParts = saved.maxParts
    STOW_LIMITS.maxPartBytes = 100
    const big = multipartBody([{ bytes: instanceOf(uid()), contentType: 'application/dicom' }])
    const large = await post(big.body, big.contentType)
    assert.equal(large.status, 413)
    assert.match(String((large.json as { error?: string }).error), /单个实例超过大小上限/)

    STOW_LIMITS.maxPartBytes = saved.maxPartBytes
    STOW_LIMITS.maxTotalBytes = big.body.length - 1
    const total = await post(big.body, big.contentType)
    assert.equal(total.status, 413)
    assert.match(String((total.json as { error?: string }).error), /请求体超过大小上限/)
  } finally {
    Object.assign(STOW_LIMITS, saved)
  }
  assert.equal(await stagingLeft(), 0)
})

test('a study UID in the path that is not a UID is a 400 in Chinese', async () => {
  const { body, contentType } = multipartBody([{ bytes: instanceOf(uid()) }])
  const res = await post(body, contentType, { path: '/dicomweb/studies/abc' })
  assert.equal(res.status, 400)
  assert.match(String((res.json as { error?: string }).error), /检查 UID 格式不正确/)
})

test('a job that failed for good answers 503 with its Chinese reason', async () => {
  const id = randomUUID()
  const at = new Date().toISOString()
  await ctx.app.db
    .insertInto('ingest_jobs')
    .values({
      id,
      kind: 'stow',
      hospital_id: ctx.hospitalId,
      status: 'failed',
      staging_prefix: `staging/stow/${id}/`,
      attempts: 4,
      received_bytes: 0,
      stored_count: 0,
      duplicate_count: 0,
      skipped_count: 0,
      message: JOB_WORKER_LOST,
      created_at: at,
      updated_at: at,
      finished_at: at,
    })
    .execute()
  const res = await fetch(`${ctx.url}/dicomweb/stow-jobs/${id}`, {
    headers: { authorization: `Bearer ${ctx.key}` },
  })
  assert.equal(res.status, 503)
  assert.equal(res.headers.get('retry-after'), '60')
  assert.equal(((await res.json()) as { error: string }).error, JOB_WORKER_LOST)
})
