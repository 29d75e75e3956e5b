/**
 * The patient's lists under load (issue 7 budget: p99 ≤ 25 ms at 50 concurrent clients on
 * loopback): 我的报告 (GET /main/reports), 我的影像 (GET /main/images) and one hospital's exam list
 * (GET /image/exams), against a real server process on a fresh SQLite database. Part of
 * `npm run bench`; alone: `npx tsx bench/records.ts`. Prints figures, never fails on them.
 *
 * Data: the demo patient gets 200 exams with reports over the seeded hospitals (a heavy user), and
 * 5 000 exams of 1 000 other people fill the tables around them, written straight into the server's
 * database file (the lists read rows; how rows arrive is the ingest bench's business).
 */
import { randomUUID } from 'node:crypto'
import { Agent, request } from 'node:http'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { DEVELOPMENT_ID_CARD_KEY } from '../server/src/config'
import { createFieldCipher } from '../server/src/crypto/field-cipher'
import { createDatabase, type DB } from '../server/src/db'
import type { ExamsTable } from '../server/src/db/schema'
import { boundIdentity, identityDigests } from '../server/src/domain/records/access'
import { DEMO_PATIENT, demoLogin, startBenchServer } from './server'

const CLIENTS = 50
const PER_CLIENT = 40
const PATIENT_EXAMS = 200
const OTHER_PEOPLE = 1000
const OTHER_EXAMS = 5000

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

/** A valid GB 11643 number (synthetic: region 110105, the check character computed). */
function idNumber(sequence: number): string {
  const first17 = `110105${19800101 + (sequence % 28)}${String(sequence % 1000).padStart(3, '0')}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...first17].reduce((acc, digit, i) => acc + Number(digit) * weights[i]!, 0)
  return `${first17}${'10X98765432'[sum % 11]}`
}

/**
 * One GET over a kept-alive connection, the body read and dropped. node:http rather than fetch: the
 * bench shares the machine's two cores with the server, and fetch spent several times the server's
 * CPU per request, so the load generator measured itself.
 */
export const agent = new Agent({ keepAlive: true, maxSockets: 1000 })
export function get(url: string, token: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const call = request(
      url,
      { agent, headers: { authorization: `Bearer ${token}`, 'accept-encoding': 'br, gzip' } },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('end', () => {
          if (response.statusCode === 200) resolve()
          else reject(new Error(`${url} answered ${response.statusCode}: ${Buffer.concat(chunks)}`))
        })
        response.on('error', reject)
      },
    )
    call.on('error', reject)
    call.end()
  })
}

/**
 * Closed loop: CLIENTS clients at once, each sending its next request as soon as the previous one
 * answered (no pause). This measures the server's throughput at saturation: with 50 requests always
 * in flight, latency ≈ 50 / throughput, whatever a person would see.
 */
async function concurrent(
  url: string,
  token: string,
): Promise<{ p50: number; p99: number; perSecond: number }> {
  const times: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < PER_CLIENT; i += 1) {
        const t0 = performance.now()
        await get(url, token)
        times.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = performance.now() - started
  times.sort((a, b) => a - b)
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: (times.length / elapsed) * 1000,
  }
}

/** Requests per second each open-loop client sends (a person tapping through lists, generously). */
const OPEN_RATE = 5
const OPEN_SECONDS = 6

/**
 * Open loop: CLIENTS clients each send OPEN_RATE requests a second on a fixed schedule, whether or
 * not the previous one has answered (people do not wait for each other). Latency is counted from
 * the moment a request was due, not from when it went out, so a server that falls behind is charged
 * for the queue it builds (no "coordinated omission"). Clients start spread over one interval.
 */
async function openLoop(
  url: string,
  token: string,
): Promise<{ p50: number; p99: number; perSecond: number }> {
  const interval = 1000 / OPEN_RATE
  const perClient = OPEN_RATE * OPEN_SECONDS
  const times: number[] = []
  const started = performance.now()
  const sends: Promise<void>[] = []
  let failure: unknown
  await Promise.all(
    Array.from({ length: CLIENTS }, async (_, client) => {
      for (let i = 0; i < perClient; i += 1) {
        const due = started + ((client / CLIENTS) * interval + i * interval)
        const wait = due - performance.now()
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
        sends.push(
          (async () => {
            await get(url, token)
            times.push(performance.now() - due)
          })().catch((error: unknown) => {
            failure ??= error
          }),
        )
      }
    }),
  )
  await Promise.all(sends)
  if (failure) throw failure
  const elapsed = performance.now() - started
  times.sort((a, b) => a - b)
  return {
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    perSecond: (times.length / elapsed) * 1000,
  }
}

/**
 * The lists are kept while the person's records are unchanged (server/src/domain/records/
 * list-cache.ts), so the loops above mostly measure kept answers. This measures the other case: one
 * request at a time, each right after a change to the person's records (a bump of the change
 * counter the database's triggers keep, as any write would), so every answer is computed afresh.
 */
async function afterEachChange(
  url: string,
  token: string,
  db: DB,
): Promise<{ p50: number; max: number }> {
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', DEMO_PATIENT)
    .executeTakeFirstOrThrow()
  const times: number[] = []
  for (let i = 0; i < 40; i += 1) {
    await db
      .insertInto('record_generations')
      .values({ subject: `u:${user.id}`, generation: 1 })
      .onConflict((conflict) =>
        conflict
          .column('subject')
          .doUpdateSet((eb) => ({ generation: eb('record_generations.generation', '+', 1) })),
      )
      .execute()
    const t0 = performance.now()
    await get(url, token)
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return { p50: percentile(times, 50), max: times[times.length - 1]! }
}

/**
 * The server process's CPU seconds so far (Linux /proc; undefined elsewhere). Found by its unique
 * DATABASE_URL. On a shared, loaded machine the latencies mostly measure the queue for a core; CPU
 * per request is what the server itself spends, and 50 × it bounds the p99 on an idle core.
 */
function serverCpuSeconds(databaseFile: string): number | undefined {
  try {
    for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
      let environ: string
      try {
        environ = readFileSync(`/proc/${pid}/environ`, 'utf8')
      } catch {
        continue
      }
      if (!environ.split('\0').includes(`DATABASE_URL=${databaseFile}`)) continue
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      // utime and stime (fields 14 and 15 of stat), in clock ticks of 1/100 s.
      return (Number(fields[11]) + Number(fields[12])) / 100
    }
  } catch {
    // Not Linux.
  }
  return undefined
}

/**
 * Waits until the server process is idle (under 5 % of a core over half a second, at most 60 s):
 * a demo server pushes its phantom studies through its own STOW-RS after it listens, and the first
 * list measured must not share the core with that ingest.
 */
async function serverQuiet(databaseFile: string): Promise<void> {
  const deadline = performance.now() + 60_000
  while (performance.now() < deadline) {
    const before = serverCpuSeconds(databaseFile)
    await new Promise((resolve) => setTimeout(resolve, 500))
    const after = serverCpuSeconds(databaseFile)
    if (before === undefined || after === undefined || after - before < 0.025) return
  }
}

async function json<T>(response: Response): Promise<T> {
  const body = (await response.json()) as { data: T; error: string | null }
  if (!response.ok) throw new Error(`${response.url}: ${response.status} ${body.error}`)
  return body.data
}

/**
 * Signs the demo patient in (binding a card if none), then writes the exams and reports around them
 * straight into the database. Returns the patient's access token and the seeded hospitals.
 */
export async function seedListData(
  url: string,
  db: DB,
): Promise<{ token: string; hospitals: string[] }> {
  // The demo server runs on the development ID-card key (no ID_CARD_KEY given).
  const cipher = createFieldCipher(DEVELOPMENT_ID_CARD_KEY)
  const token = await demoLogin(url)
  const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' }
  const user = await db
    .selectFrom('users')
    .select('id')
    .where('mobile', '=', DEMO_PATIENT)
    .executeTakeFirstOrThrow()
  if (!(await boundIdentity(db, cipher, user.id))) {
    await json(
      await fetch(`${url}/main/account/idcard`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ realName: '张演示', idCard: idNumber(999_001) }),
      }),
    )
  }
  const identity = (await boundIdentity(db, cipher, user.id))!
  const hospitals = (
    await db.selectFrom('hospitals').select('id').orderBy('sort_order').execute()
  ).map((row) => row.id)
  if (hospitals.length === 0) throw new Error('the demo seed has no hospitals')

  const at = new Date().toISOString()
  const exams: ExamsTable[] = []
  const exam = (index: number, key: { patientKey: string; nameHash: string }): ExamsTable => {
    const day = new Date(Date.UTC(2025, 0, 1) + (index % 700) * 86_400_000)
      .toISOString()
      .slice(0, 10)
    return {
      id: randomUUID(),
      hospital_id: hospitals[index % hospitals.length]!,
      owner_user_id: null,
      source: 'hospital',
      study_uid: `1.2.826.0.1.3680043.10.555.${index}`,
      accession_number: `B${index}`,
      patient_key: key.patientKey,
      patient_name_hash: key.nameHash,
      patient_name_encrypted: null,
      patient_phone_encrypted: null,
      patient_sex: 'F',
      patient_birth_date: null,
      modalities: index % 4 === 0 ? 'MR' : 'CT',
      body_part: null,
      description: `检查 ${index}`,
      study_date: day,
      study_time: '10:00:00',
      title: null,
      hospital_text: null,
      notes: null,
      series_count: 3,
      instance_count: 120,
      size_bytes: 60_000_000,
      status: 'ready',
      status_message: null,
      created_at: at,
      updated_at: at,
    }
  }
  for (let i = 0; i < PATIENT_EXAMS; i += 1) exams.push(exam(i, identity))
  const others = Array.from({ length: OTHER_PEOPLE }, (_, i) =>
    identityDigests(cipher, idNumber(i), `路人${i}`),
  )
  for (let i = 0; i < OTHER_EXAMS; i += 1)
    exams.push(exam(PATIENT_EXAMS + i, others[i % OTHER_PEOPLE]!))
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < exams.length; i += 200) {
      const chunk = exams.slice(i, i + 200)
      await trx.insertInto('exams').values(chunk).execute()
      await trx
        .insertInto('reports')
        .values(
          chunk.map((row, j) => ({
            id: randomUUID(),
            exam_id: row.id,
            hospital_id: row.hospital_id!,
            resource_id: `bench|${i + j}`,
            status: 'final',
            version: 1,
            code_text: row.description,
            findings: '双肺纹理清晰，未见明显实质性病变。',
            conclusion: '未见明显异常。',
            performer: '王医生',
            reviewer: '李主任',
            effective_at: `${row.study_date}T10:00:00+08:00`,
            issued_at: `${row.study_date}T12:00:00Z`,
            resource_json: '{}',
            created_at: at,
            updated_at: at,
          })),
        )
        .execute()
    }
  })

  return { token, hospitals }
}

export async function printRecordsFigures(): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'yx-bench-records-'))
  const file = path.join(dataDir, 'records.sqlite')
  const server = await startBenchServer({ DATABASE_URL: file })
  const handle = createDatabase({ kind: 'sqlite', file })
  try {
    const { db } = handle
    const { token, hospitals } = await seedListData(server.url, db)
    console.log(
      `\n## Patient lists (the patient has ${PATIENT_EXAMS} exams with reports among ${PATIENT_EXAMS + OTHER_EXAMS})\n` +
        `Open loop: ${CLIENTS} clients × ${OPEN_RATE} req/s each for ${OPEN_SECONDS} s (the budget: p99 ≤ 25 ms). ` +
        `Closed loop: ${CLIENTS} clients × ${PER_CLIENT} requests back to back (saturation throughput).\n`,
    )
    await serverQuiet(file)
    // `--only=<text>` measures the lists whose name has it (to profile one of them).
    const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length)
    for (const [name, url] of [
      // The floor: an authenticated read of one small row (session check, one query).
      ['GET /main/account/cards (baseline: auth + one row)', `${server.url}/main/account/cards`],
      ['GET /main/reports (我的报告, page 1 of 10)', `${server.url}/main/reports`],
      ['GET /main/images (我的影像, grouped)', `${server.url}/main/images`],
      [
        'GET /image/exams (one hospital, page 1)',
        `${server.url}/image/exams?hospitalId=${hospitals[0]}`,
      ],
    ] as const) {
      if (only && !name.includes(only)) continue
      // Warm: the connections open and the code paths compiled before anything is timed.
      await Promise.all(Array.from({ length: CLIENTS }, () => get(url, token)))
      const open = await openLoop(url, token)
      const cpuBefore = serverCpuSeconds(file)
      const clientBefore = process.cpuUsage()
      const closed = await concurrent(url, token)
      const client = process.cpuUsage(clientBefore)
      const cpuAfter = serverCpuSeconds(file)
      const requests = CLIENTS * PER_CLIENT
      const cpu =
        (cpuBefore === undefined || cpuAfter === undefined
          ? ''
          : `, server CPU ${(((cpuAfter - cpuBefore) * 1000) / requests).toFixed(2)} ms/request`) +
        ` (bench client ${((client.user + client.system) / 1000 / requests).toFixed(2)})`
      const fresh = await afterEachChange(url, token, db)
      console.log(
        `| ${name} | open loop p50 ${open.p50.toFixed(1)} ms, p99 ${open.p99.toFixed(1)} ms (${open.perSecond.toFixed(0)} req/s) | ` +
          `closed loop p50 ${closed.p50.toFixed(1)} ms, p99 ${closed.p99.toFixed(1)} ms, ${closed.perSecond.toFixed(0)} req/s${cpu} | ` +
          `computed afresh after a change: median ${fresh.p50.toFixed(1)} ms, max ${fresh.max.toFixed(1)} ms |`,
      )
    }
  } finally {
    agent.destroy()
    await handle.destroy()
    await server.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
}

if (require.main === module) {
  printRecordsFigures().then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
