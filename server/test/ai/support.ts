import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { type Element, newUid, writePart10 } from '../../src/dicom/write'
import { ingestFiles, type IngestFile } from '../../src/domain/ingest/ingest'
import type { AiSlice, AiStudy } from '../../src/providers/ai'
import { signUp, type TestUser } from '../domain/profile/support'
import {
  application,
  type ConsultWorld,
  consultWorld,
  expert,
  patient,
} from '../consultations/support'

/*
 * Shared by the AI tests (not a test file): a box phantom whose true lung volume, mean density and
 * LAA%-950 are known by construction, as in-memory slices and as DICOM files; a world with a
 * patient, her CT, an expert and a paid consultation sharing the CT.
 */

/** The phantom: air (−1000 HU) around a body box (−50) holding a lung box (−800) with a −980 patch. */
export const BOX = {
  rows: 64,
  columns: 64,
  /** Row spacing, column spacing (mm). */
  pixelSpacing: [2, 1.5] as [number, number],
  /** The positions step 4 mm; the stated thickness (5) must not be used when positions exist. */
  sliceStep: 4,
  sliceThickness: 5,
  slices: 12,
  slope: 2,
  intercept: -1024,
  body: { rows: [8, 55], columns: [6, 57], slices: [0, 11], hu: -50 },
  lung: { rows: [20, 43], columns: [16, 47], slices: [2, 9], hu: -800 },
  patch: { rows: [24, 27], columns: [20, 29], slices: [4, 5], hu: -980 },
  air: -1000,
} as const

type Range = readonly [number, number]
const inside = (value: number, range: Range) => value >= range[0] && value <= range[1]

/** The HU at a voxel, straight from the definition. */
export function boxHu(slice: number, row: number, column: number): number {
  const at = (part: { rows: Range; columns: Range; slices: Range }) =>
    inside(slice, part.slices) && inside(row, part.rows) && inside(column, part.columns)
  if (at(BOX.patch)) return BOX.patch.hu
  if (at(BOX.lung)) return BOX.lung.hu
  if (at(BOX.body)) return BOX.body.hu
  return BOX.air
}

/** The stored values of one slice (HU = stored × slope + intercept). */
export function boxStored(slice: number): Uint16Array {
  const stored = new Uint16Array(BOX.rows * BOX.columns)
  for (let r = 0; r < BOX.rows; r++) {
    for (let c = 0; c < BOX.columns; c++) {
      stored[r * BOX.columns + c] = (boxHu(slice, r, c) - BOX.intercept) / BOX.slope
    }
  }
  return stored
}

/** The phantom's truth, counted from the definition's ranges (not from any image). */
export function boxTruth() {
  const size = (range: Range) => range[1] - range[0] + 1
  const lungVoxels = size(BOX.lung.rows) * size(BOX.lung.columns) * size(BOX.lung.slices)
  const patchVoxels = size(BOX.patch.rows) * size(BOX.patch.columns) * size(BOX.patch.slices)
  const voxelCm3 = (BOX.pixelSpacing[0] * BOX.pixelSpacing[1] * BOX.sliceStep) / 1000
  return {
    volumeCm3: lungVoxels * voxelCm3,
    meanHu: ((lungVoxels - patchVoxels) * BOX.lung.hu + patchVoxels * BOX.patch.hu) / lungVoxels,
    laaPercent: (patchVoxels / lungVoxels) * 100,
  }
}

/** The phantom as a provider's input, without DICOM. */
export function boxStudy(overrides: Partial<AiSlice> = {}, slices: number = BOX.slices): AiStudy {
  return {
    examId: 'box',
    modalities: ['CT'],
    series: [
      {
        seriesUid: '1.2.3',
        modality: 'CT',
        bodyPart: 'CHEST',
        description: null,
        slices: Array.from({ length: slices }, (_, s) => ({
          sopInstanceUid: `1.2.3.${s}`,
          instanceNumber: s + 1,
          rows: BOX.rows,
          columns: BOX.columns,
          frameCount: 1,
          rescaleSlope: BOX.slope,
          rescaleIntercept: BOX.intercept,
          pixelSpacing: BOX.pixelSpacing,
          imagePosition: [-50, -60, 100 - s * BOX.sliceStep],
          imageOrientation: [1, 0, 0, 0, 1, 0],
          sliceThickness: BOX.sliceThickness,
          spacingBetweenSlices: null,
          readPixels: async () => boxStored(s),
          ...overrides,
        })),
      },
    ],
  }
}

/** The phantom as DICOM files (explicit VR LE, 16-bit unsigned, 12 bits stored). */
export function boxDicom(options: { name: string; idNumber: string; modality?: string }) {
  const study = newUid()
  const series = newUid()
  const files: IngestFile[] = []
  for (let s = 0; s < BOX.slices; s++) {
    const sop = newUid()
    const elements: Element[] = [
      { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
      { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
      { tag: '00080018', vr: 'UI', value: sop },
      { tag: '00080020', vr: 'DA', value: '20261015' },
      { tag: '00080060', vr: 'CS', value: options.modality ?? 'CT' },
      { tag: '00081030', vr: 'LO', value: '胸部 CT 体模（AI 测试）' },
      { tag: '00100010', vr: 'PN', value: options.name },
      { tag: '00100020', vr: 'LO', value: options.idNumber },
      { tag: '00180050', vr: 'DS', value: String(BOX.sliceThickness) },
      { tag: '0020000D', vr: 'UI', value: study },
      { tag: '0020000E', vr: 'UI', value: series },
      { tag: '00200011', vr: 'IS', value: '1' },
      { tag: '00200013', vr: 'IS', value: String(s + 1) },
      { tag: '00200032', vr: 'DS', value: ['-50', '-60', String(100 - s * BOX.sliceStep)] },
      { tag: '00200037', vr: 'DS', value: ['1', '0', '0', '0', '1', '0'] },
      { tag: '00280002', vr: 'US', value: [1] },
      { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
      { tag: '00280010', vr: 'US', value: [BOX.rows] },
      { tag: '00280011', vr: 'US', value: [BOX.columns] },
      { tag: '00280030', vr: 'DS', value: BOX.pixelSpacing.map(String) },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [12] },
      { tag: '00280102', vr: 'US', value: [11] },
      { tag: '00280103', vr: 'US', value: [0] },
      { tag: '00281052', vr: 'DS', value: String(BOX.intercept) },
      { tag: '00281053', vr: 'DS', value: String(BOX.slope) },
      { tag: '7FE00010', vr: 'OW', value: boxStored(s) },
    ]
    files.push({ name: `${sop}.dcm`, bytes: writePart10(elements) })
  }
  return { studyUid: study, files }
}

export interface AiWorld {
  world: ConsultWorld
  asker: TestUser
  doctor: TestUser
  /** The patient's CT (the box phantom, uploaded). */
  examId: string
  consultationId: string
  grantId: string
}

/** Uploads the phantom as `user`'s own study; answers the exam id. */
export async function uploadBox(world: ConsultWorld, user: TestUser): Promise<string> {
  const { app } = world
  const { studyUid, files } = boxDicom({ name: '王患者', idNumber: 'UPLOAD-1' })
  await ingestFiles(
    { db: app.db, store: app.store, cipher: app.personalCipher, now: world.clock.now },
    { kind: 'upload', userId: user.user.id },
    files,
    { thumbnails: false },
  )
  const exam = await app.db
    .selectFrom('exams')
    .select(['id', 'status'])
    .where('study_uid', '=', studyUid)
    .where('owner_user_id', '=', user.user.id)
    .executeTakeFirstOrThrow()
  assert.equal(exam.status, 'ready')
  return exam.id
}

/** A paid consultation of `asker` with `doctor` whose grant shares `examIds`. */
export async function consultationSharing(
  world: ConsultWorld,
  asker: TestUser,
  doctor: TestUser,
  examIds: string[],
): Promise<{ consultationId: string; grantId: string }> {
  const { input } = await application(world, asker, doctor)
  const created = await world.call(asker, 'POST', '/main/consultations', { ...input, examIds })
  assert.equal(created.status, 200, created.error ?? '')
  const id = created.data.id as string
  const pay = await world.call(asker, 'POST', `/main/consultations/${id}/pay`, { client: 'h5' })
  assert.equal(pay.status, 200, pay.error ?? '')
  const paid = await world.call(asker, 'POST', `/main/consultations/${id}/demo-pay`, {
    token: pay.data.demoToken,
  })
  assert.equal(paid.status, 200, paid.error ?? '')
  const row = await world.app.db
    .selectFrom('consultations')
    .select('grant_id')
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return { consultationId: id, grantId: row.grant_id }
}

/** Polls the patient's view until the analysis is done or failed. */
export async function waitForAnalysis(
  world: ConsultWorld,
  user: TestUser,
  examId: string,
  timeoutMs = 20_000,
) {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const view = await world.call(user, 'GET', `/main/exams/${examId}/ai-analysis`)
    assert.equal(view.status, 200, view.error ?? '')
    const state = view.data.analysis?.state as string | undefined
    if (state === 'done' || state === 'failed') return view.data
    if (Date.now() > deadline) assert.fail(`analysis still ${state} after ${timeoutMs} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** A patient with the phantom CT, an expert, and a paid consultation sharing the CT. */
export async function aiWorld(options: Parameters<typeof consultWorld>[0] = {}): Promise<AiWorld> {
  const world = await consultWorld({
    ...options,
    config: { aiProvider: 'demo', ...options.config },
  })
  const asker = await patient(world)
  const doctor = await expert(world)
  const examId = await uploadBox(world, asker)
  const { consultationId, grantId } = await consultationSharing(world, asker, doctor, [examId])
  return { world, asker, doctor, examId, consultationId, grantId }
}

/** Makes `manager` the adult family manager of `member` (as 亲情卡 does after the member's code). */
export async function manage(world: ConsultWorld, member: TestUser): Promise<TestUser> {
  const manager = await signUp(world.app.db, world.clock.now())
  await world.app.db
    .insertInto('family_links')
    .values({
      id: randomUUID(),
      manager_user_id: manager.user.id,
      member_user_id: member.user.id,
      kind: 'adult',
      relation: 'spouse',
      created_at: world.clock.now().toISOString(),
      ended_at: null,
    })
    .execute()
  return manager
}
