import assert from 'node:assert/strict'
import { after, before, test } from 'node:test'
import { buildApp } from '../../src/app'
import { type IngestFile, ingestFiles } from '../../src/domain/ingest/ingest'
import { patientScope } from '../../src/domain/patient/lists'
import { examDetail } from '../../src/domain/patient/patient'
import type { ObjectStore } from '../../src/storage'
import { writeInstance } from '../dicom/writer'
import { closeAfter, testConfig } from '../helpers'
import { freshUid, ID_A, mrVolume, type ReadWorld, readWorld } from './read-support'

/*
 * The first view of 影像详情 reads its thumbnails from the store: ingest renders, after the
 * commit of a patient's upload, the very thumbnail the page names for each new series (examDetail's
 * thumbnailPath). Hospital pushes render nothing: PACS push one instance a request and the middle
 * instance moves with each, so those renders were never shown; their page renders on demand.
 */

let world: ReadWorld
before(async () => {
  world = await readWorld()
})
after(async () => {
  await world.app.close()
})

const ctx = (store: ObjectStore = world.app.store) => ({
  db: world.app.db,
  store,
  cipher: world.app.personalCipher,
  now: () => new Date(),
})

/** The store, counting the thumbnails written into it (previews/...). */
function countingPreviews(): { store: ObjectStore; previews: () => number } {
  let previews = 0
  const store: ObjectStore = Object.create(world.app.store) as ObjectStore
  store.put = async (key, body, options) => {
    if (key.startsWith('previews/')) previews += 1
    return world.app.store.put(key, body, options)
  }
  return { store, previews: () => previews }
}

async function detailThumbnails(userId: string, examId: string): Promise<string[]> {
  const scope = await patientScope(world.app.db, world.app.personalCipher, { id: userId })
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
  const counting = countingPreviews()
  const result = await ingestFiles(
    ctx(counting.store),
    { kind: 'upload', userId: world.alice.user.id },
    mrVolume(),
  )
  assert.equal(result.stored, 20)
  assert.equal(counting.previews(), 1, 'one series, one thumbnail')
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
  // Series 1: five slices; series 2: three, whose middle one has no pixel data, so the page shows
  // the nearest one that has.
  const files = [
    ...[1, 2, 3, 4, 5].map((index) => slice(study, 1, index)),
    ...[1, 2, 3].map((index) => slice(study, 2, index, index !== 2)),
  ]
  const result = await ingestFiles(ctx(), { kind: 'upload', userId: world.alice.user.id }, files)
  assert.equal(result.stored, 8)
  const paths = await detailThumbnails(world.alice.user.id, result.examIds[0]!)
  assert.equal(paths.length, 2)
  assert.match(paths[1]!, new RegExp(`instances/${study}\\.2\\.(1|3)/thumbnail$`))
  for (const path of paths) assert.match(await timingOf(path), /desc="cached"/, path)
})

test('hospital pushes render no thumbnail; the page’s first request renders it, then it is cached', async () => {
  // A PACS pushes a series one instance a request: each push used to render the then-middle slice.
  const study = freshUid()
  const counting = countingPreviews()
  let examId = ''
  for (const index of [1, 2, 3, 4, 5]) {
    const result = await ingestFiles(
      ctx(counting.store),
      { kind: 'hospital', hospitalId: world.hospitalA.id },
      [
        slice(study, 1, index, true, [
          { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
          { tag: '00100010', vr: 'PN', value: Buffer.from('张^三').toString('latin1') },
          { tag: '00100020', vr: 'LO', value: ID_A },
        ]),
      ],
    )
    assert.equal(result.stored, 1)
    examId = result.examIds[0]!
  }
  assert.equal(counting.previews(), 0, 'no thumbnail rendered by the pushes')
  const [path] = await detailThumbnails(world.alice.user.id, examId)
  assert.match(path!, new RegExp(`instances/${study}\\.1\\.3/thumbnail$`))
  assert.match(await timingOf(path!), /desc="rendered"/)
  assert.match(await timingOf(path!), /desc="cached"/)
})

/** A 128² 8-bit slice of series `series` of the study; without pixel data when `pixels` is false. */
function slice(
  study: string,
  series: number,
  index: number,
  pixels = true,
  extra: { tag: string; vr: string; value: string }[] = [],
): IngestFile {
  return {
    name: `${series}-${index}`,
    bytes: writeInstance(
      [
        ...extra,
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
  }
}

test('a started server loads the JPEG encoder in the background, for hospital studies’ first thumbnail', async () => {
  // Hospital pushes render nothing ahead, so without this the first thumbnail paid for the codec
  // load too (630–1330 ms measured).
  const lines: string[] = []
  const app = await buildApp(testConfig({ logLevel: 'info' }), {
    logStream: { write: (line) => void lines.push(line) },
  })
  closeAfter(() => app.close())
  const loaded = () =>
    lines
      .map((line) => JSON.parse(line) as { msg?: string })
      .some((r) => r.msg === 'JPEG encoder loaded')
  await app.ready()
  assert.equal(loaded(), false, 'not while the app is only built (tests, scripts)')
  await app.listen({ port: 0, host: '127.0.0.1' })
  const deadline = Date.now() + 15_000
  while (!loaded() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20))
  assert.ok(loaded(), 'loaded after listen')
})
