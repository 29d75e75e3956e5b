import assert from 'node:assert/strict'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { connect } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { testInstance } from '../dicom/writer'
import { multipartBody, type StowContext, stowContext } from './stow-support'

/*
 * A STOW-RS push cannot be resumed: a body cut off half way (the hospital's link dropped, its
 * system killed) is worth nothing, so what it staged goes when the request ends, not a day later
 * with the sweep of abandoned jobs. Over a raw socket: part of a large body, then the socket
 * destroyed; the staging folder is listed before and after. Also a malformed body. Both databases.
 */

const uploadDir = mkdtempSync(path.join(os.tmpdir(), 'stow-cutoff-'))
after(() => rmSync(uploadDir, { recursive: true, force: true }))
const objects = path.join(uploadDir, '.objects')
const stagingDir = path.join(objects, 'staging', 'stow')

let ctx: StowContext
before(async () => {
  ctx = await stowContext({ uploadDir })
})

/** Every file and folder under `dir` (relative), dot files included. */
const entries = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { recursive: true, encoding: 'utf8' }).sort() : []

async function until(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs
  while (!check() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25))
  return check()
}

let serial = 0
const study = `1.2.826.0.1.3680043.10.99.${process.pid}.${Date.now()}`
function instance(pixelBytes: number): Buffer {
  serial += 1
  return testInstance([
    { tag: '0020000D', vr: 'UI', value: study },
    { tag: '0020000E', vr: 'UI', value: `${study}.1` },
    { tag: '00080018', vr: 'UI', value: `${study}.1.${serial}` },
    { tag: '7FE00010', vr: 'OB', value: new Uint8Array(pixelBytes).fill(serial) },
  ])
}

const jobsOf = () => ctx.app.db.selectFrom('ingest_jobs').select(['id', 'status']).execute()

test('a push cut off mid-body leaves nothing staged once the socket is gone; the server goes on', async () => {
  assert.deepEqual(entries(stagingDir), [], 'staging is empty before')
  const jobsBefore = await jobsOf()
  // Three 12 MB instances; about 23.6 MB of the 36 are sent: the first whole, the second cut.
  const { body, contentType } = multipartBody(
    [1, 2, 3].map(() => ({ bytes: instance(12 * 1024 * 1024), contentType: 'application/dicom' })),
  )
  const sent = body.subarray(0, Math.floor(23.6 * 1024 * 1024))
  const socket = connect(Number(new URL(ctx.url).port), '127.0.0.1')
  await new Promise((resolve) => socket.once('connect', resolve))
  socket.on('error', () => undefined)
  socket.write(
    `POST /dicomweb/studies HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${ctx.key}\r\n` +
      `Content-Type: ${contentType}\r\nContent-Length: ${body.length}\r\n\r\n`,
  )
  await new Promise<void>((resolve) => socket.write(sent, () => resolve()))
  // Cut while the server is staging: the first part is stored, the second one half written.
  assert.ok(
    await until(() => entries(stagingDir).some((name) => /\/0$/.test(name)), 20_000),
    'the server never staged the first part',
  )
  const during = entries(stagingDir)
  socket.destroy()

  const cleared = await until(() => entries(stagingDir).length === 0, 5_000)
  assert.ok(
    cleared,
    `left after the cut: ${JSON.stringify(entries(stagingDir))} (was ${JSON.stringify(during)})`,
  )
  // No temporary file of the part being written either.
  assert.deepEqual(
    entries(path.join(objects, '.tmp')).filter((name) => name.endsWith('.part')),
    [],
  )
  // The job is marked after the staged files go (its own statement): on a loaded machine the
  // mark can come a moment after the directory is empty, so wait for it as for the files.
  const added = async () =>
    (await jobsOf()).filter((job) => !jobsBefore.some((old) => old.id === job.id))
  const deadline = Date.now() + 5_000
  let statuses = (await added()).map((job) => job.status)
  while (statuses[0] !== 'cancelled' && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 25))
    statuses = (await added()).map((job) => job.status)
  }
  assert.deepEqual(statuses, ['cancelled'])

  // The server keeps serving: the next push is stored.
  const next = multipartBody([{ bytes: instance(1024), contentType: 'application/dicom' }])
  const res = await fetch(`${ctx.url}/dicomweb/studies`, {
    method: 'POST',
    headers: { 'content-type': next.contentType, authorization: `Bearer ${ctx.key}` },
    body: next.body,
  })
  assert.equal(res.status, 200)
  assert.ok(
    await until(() => entries(stagingDir).length === 0, 5_000),
    'a stored push left staging',
  )
})

test('a malformed body after a whole part: 400, and nothing of it staged', async () => {
  const part = instance(2 * 1024 * 1024)
  const body = Buffer.concat([
    Buffer.from('--bnd\r\nContent-Type: application/dicom\r\n\r\n'),
    part,
    Buffer.from('\r\n--bnd\r\nnot a header\r\n\r\n'),
    part,
    Buffer.from('\r\n--bnd--'),
  ])
  const res = await fetch(`${ctx.url}/dicomweb/studies`, {
    method: 'POST',
    headers: {
      'content-type': 'multipart/related; type="application/dicom"; boundary=bnd',
      authorization: `Bearer ${ctx.key}`,
    },
    body,
  })
  assert.equal(res.status, 400)
  assert.deepEqual(entries(stagingDir), [])
})
