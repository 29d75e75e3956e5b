import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { before, test } from 'node:test'
import {
  clientSample,
  freshUid,
  ID_A,
  type Json,
  personInstance,
  readWorld,
  type ReadWorld,
} from './read-support'

/*
 * The whole path with standard clients only: a hospital system pushes with dicomweb-client's
 * storeInstances (STOW-RS, helper A's route), then reads back with QIDO/WADO, and the patient whose
 * bound ID card matches finds the same study with the same client; another patient does not.
 */

let world: ReadWorld
before(async () => {
  world = await readWorld()
})

const sha = (bytes: ArrayBuffer | Uint8Array) =>
  createHash('sha256')
    .update(bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes)
    .digest('hex')
const first = (row: Json, tag: string) => row[tag]?.Value?.[0]
const arrayBuffer = (bytes: Buffer) =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer

test('pushed by STOW-RS, read back by QIDO/WADO: the hospital and the matching patient, nobody else', async () => {
  const study = freshUid()
  const series = freshUid()
  const files = [1, 2].map((n) =>
    personInstance({
      idNumber: ID_A,
      name: '张^三',
      study,
      series,
      sop: freshUid(),
      instanceNumber: n,
    }),
  )
  const echo = clientSample('US-PAL-8-10x-echo.dcm')
  const hospital = world.client(world.hospitalA.key, { Prefer: 'wait=60' })
  await hospital.storeInstances({ datasets: [...files, echo].map((f) => arrayBuffer(f.bytes)) })

  const [found] = await hospital.searchForStudies({ queryParams: { StudyInstanceUID: study } })
  assert.equal(first(found!, '00201208'), 2)
  const instances = await hospital.searchForInstances({ studyInstanceUID: study })
  const sop = String(first(instances[0]!, '00080018'))
  const original = files.find((f) => f.name === `${sop}.dcm`)!
  const back = await hospital.retrieveInstance({
    studyInstanceUID: study,
    seriesInstanceUID: series,
    sopInstanceUID: sop,
  })
  assert.equal(sha(back), sha(original.bytes), 'the hospital gets back exactly what it pushed')

  const patient = world.client(world.alice.token)
  const mine = await patient.searchForStudies()
  assert.deepEqual(
    mine.map((row) => first(row, '0020000D')),
    [study],
    'her study, not the echo of someone else pushed in the same request',
  )
  const frames = await patient.retrieveInstanceFrames({
    studyInstanceUID: study,
    seriesInstanceUID: series,
    sopInstanceUID: sop,
    frameNumbers: [1],
  })
  assert.deepEqual([...new Uint8Array(frames[0]!)], [0, 100, 200, 255])
  const rendered = await patient.retrieveInstanceRendered({
    studyInstanceUID: study,
    seriesInstanceUID: series,
    sopInstanceUID: sop,
  })
  const jpeg = Buffer.from(Array.isArray(rendered) ? rendered[0]! : rendered)
  assert.equal(jpeg.readUInt16BE(0), 0xffd8)

  const stranger = world.client(world.bob.token)
  assert.deepEqual(await stranger.searchForStudies(), [])
  await assert.rejects(
    stranger.retrieveStudyMetadata({ studyInstanceUID: study }),
    (error: { status?: number }) => error.status === 404,
  )
})
