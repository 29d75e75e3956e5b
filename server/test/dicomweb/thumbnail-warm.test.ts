import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { type IngestFile, ingestFiles } from '../../src/domain/records/ingest'
import { patientScope } from '../../src/domain/records/lists'
import { examDetail } from '../../src/domain/records/patient'
import { writeInstance } from '../dicom/writer'
import { freshUid, mrVolume, type ReadWorld, readWorld } from './read-support'

/*
 * The first view of 影像详情 reads its thumbnails from the store: ingest renders, after the
 * commit, the very thumbnail the page names for each new series (examDetail's thumbnailPath).
 */

let world: ReadWorld
before(async () => {
  world = await readWorld()
})
after(async () => {
  await world.app.close()
})

const ctx = () => ({
  db: world.app.db,
  store: world.app.store,
  cipher: world.app.personalCipher,
  now: () => new Date(),
})

async function detailThumbnails(userId: string, examId: string): Promise<string[]> {
  const scope = await patientScope(world.app.db, world.app.personalCipher, userId)
  const detail = await examDetail(world.app.db, world.app.personalCipher, scope, examId)
  return detail.series.map((series) => series.thumbnailPath!)
}

async function timingOf(urlPath: string): Promise<string> {
  const answer = await world.get(urlPath, world.alice.token)
  assert.equal(answer.status, 200, urlPath)
  assert.equal(answer.headers.get('content-type'), 'image/jpeg')
  await answer.arrayBuffer()
  return answer.headers.get('server-timing') ?? ''
}

test('after an upload, the detail page’s first thumbnail is already rendered (a cached read)', async () => {
  const result = await ingestFiles(
    ctx(),
    { kind: 'upload', userId: world.alice.user.id },
    mrVolume(),
  )
  assert.equal(result.stored, 20)
  const [path] = await detailThumbnails(world.alice.user.id, result.examIds[0]!)
  assert.match(await timingOf(path!), /desc="cached"/)
})

test('without the warm-up the same first view renders (what the warm-up saves)', async () => {
  // The MR again as another user's upload: its own exam, nothing cached for it yet.
  const result = await ingestFiles(
    ctx(),
    { kind: 'upload', userId: world.bob.user.id },
    mrVolume(),
    {
      thumbnails: false,
    },
  )
  const [path] = await detailThumbnails(world.bob.user.id, result.examIds[0]!)
  const answer = await world.get(path!, world.bob.token)
  assert.equal(answer.status, 200)
  assert.match(answer.headers.get('server-timing') ?? '', /desc="rendered"/)
})

test('every new series gets its thumbnail, the one examDetail picks even when the middle has none', async () => {
  const study = freshUid()
  const slice = (series: number, index: number, pixels = true): IngestFile => ({
    name: `${series}-${index}`,
    bytes: writeInstance(
      [
        { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
        { tag: '00080018', vr: 'UI', value: `${study}.${series}.${index}` },
        { tag: '00080060', vr: 'CS', value: 'OT' },
        { tag: '0020000D', vr: 'UI', value: study },
        { tag: '0020000E', vr: 'UI', value: `${study}.${series}` },
        { tag: '00200011', vr: 'IS', value: String(series) },
        { tag: '00200013', vr: 'IS', value: String(index) },
        { tag: '00280002', vr: 'US', value: [1] },
        { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
        { tag: '00280010', vr: 'US', value: [128] },
        { tag: '00280011', vr: 'US', value: [128] },
        { tag: '00280100', vr: 'US', value: [8] },
        { tag: '00280101', vr: 'US', value: [8] },
        { tag: '00280102', vr: 'US', value: [7] },
        { tag: '00280103', vr: 'US', value: [0] },
        ...(pixels
          ? [{ tag: '7FE00010', vr: 'OB', value: new Uint8Array(128 * 128).fill(index * 40) }]
          : []),
      ],
      undefined,
    ),
  })
  // Series 1: five slices; series 2: three, whose middle one has no pixel data, so the page shows
  // the nearest one that has.
  const files = [
    ...[1, 2, 3, 4, 5].map((index) => slice(1, index)),
    ...[1, 2, 3].map((index) => slice(2, index, index !== 2)),
  ]
  const result = await ingestFiles(ctx(), { kind: 'upload', userId: world.alice.user.id }, files)
  assert.equal(result.stored, 8)
  const paths = await detailThumbnails(world.alice.user.id, result.examIds[0]!)
  assert.equal(paths.length, 2)
  assert.match(paths[1]!, new RegExp(`instances/${study}\\.2\\.(1|3)/thumbnail$`))
  for (const path of paths) assert.match(await timingOf(path), /desc="cached"/, path)
})
