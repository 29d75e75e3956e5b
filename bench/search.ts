/**
 * `npx tsx bench/search.ts`: article list and search latency at 10,000 published articles, on
 * SQLite and on PostgreSQL (a throwaway cluster, when PostgreSQL is installed). In-process
 * (app.inject): what the handler and the database take, without the network. Prints figures,
 * passes or fails nothing (issue 10's goal is ≤ 50 ms for a search).
 */
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { buildApp } from '../server/src/app'
import { loadConfig } from '../server/src/config'
import type { DB } from '../server/src/db'
import { DEMO_ARTICLES } from '../server/src/domain/content/demo/articles'
import { seedDemoContent } from '../server/src/domain/content/demo/seed'
import { startPgCluster } from '../scripts/pg-cluster'

const ARTICLES = 10_000
const ROUNDS = 60

/** Generated articles: sentences of the demo articles in a new order, so text is real Chinese. */
async function fill(db: DB): Promise<void> {
  const sentences = DEMO_ARTICLES.flatMap((a) => a.body.split(/[。\n]/).filter((s) => s.length > 6))
  const types = await db.selectFrom('article_types').select('id').execute()
  const at = Date.now()
  for (let batch = 0; batch < ARTICLES / 500; batch += 1) {
    const rows = Array.from({ length: 500 }, (_, i) => {
      const n = batch * 500 + i
      const text = Array.from(
        { length: 12 },
        (_, k) => sentences[(n * 7 + k * 13) % sentences.length],
      ).join('。')
      const when = new Date(at - n * 60_000).toISOString()
      return {
        id: randomUUID(),
        type_id: types[n % types.length]!.id,
        title: `${sentences[n % sentences.length]!.slice(0, 20)}（${n}）`,
        summary: sentences[(n * 3) % sentences.length]!.slice(0, 60),
        html: `<p>${text}</p>`,
        plain_text: text,
        cover_file_id: null,
        author: null,
        source: null,
        state: 'published' as const,
        removed: '[]',
        demo: 0,
        published_at: when,
        created_at: when,
        updated_at: when,
        updated_by_user_id: null,
        read_count: 0,
        like_count: 0,
        favourite_count: 0,
      }
    })
    await db.insertInto('articles').values(rows).execute()
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function measure(app: Awaited<ReturnType<typeof buildApp>>, url: string) {
  for (let i = 0; i < 5; i += 1) await app.inject({ url })
  const times: number[] = []
  for (let i = 0; i < ROUNDS; i += 1) {
    const t0 = performance.now()
    const res = await app.inject({ url })
    if (res.statusCode !== 200) throw new Error(`${url} answered ${res.statusCode}`)
    times.push(performance.now() - t0)
  }
  times.sort((a, b) => a - b)
  return `p50 ${percentile(times, 50).toFixed(1)} ms  p99 ${percentile(times, 99).toFixed(1)} ms`
}

const CASES: [string, string][] = [
  ['articles, page 1', '/main/articles'],
  ['articles, page 50', '/main/articles?page=50'],
  [
    'search 肺结节 (3 chars, articles)',
    `/main/search?kind=article&q=${encodeURIComponent('肺结节')}`,
  ],
  [
    'search 磨玻璃肺结节 (5 chars)',
    `/main/search?kind=article&q=${encodeURIComponent('磨玻璃肺结节')}`,
  ],
  ['search 结节 (2 chars)', `/main/search?kind=article&q=${encodeURIComponent('结节')}`],
  ['search 肺结节, every kind', `/main/search?q=${encodeURIComponent('肺结节')}`],
  ['search nothing found', `/main/search?q=${encodeURIComponent('无此内容词')}`],
]

async function run(label: string, env: Record<string, string>): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'yx-bench-search-'))
  try {
    const config = loadConfig({
      LOG_LEVEL: 'silent',
      UPLOAD_DIR: path.join(dir, 'uploads'),
      WEB_ROOT: path.join(dir, 'no-web'),
      ...env,
    })
    const app = await buildApp(config)
    try {
      await seedDemoContent(app.db, app.store, new Date())
      const t0 = performance.now()
      await fill(app.db)
      // What autovacuum does soon after a bulk load: without statistics PostgreSQL's planner does
      // not know the trigram index pays off (SQLite's planner needs none).
      if (app.database.kind === 'postgres') await sql`analyze articles`.execute(app.db)
      console.log(
        `${label}: ${ARTICLES} articles written in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
      )
      for (const [name, url] of CASES)
        console.log(`  ${name.padEnd(36)} ${await measure(app, url)}`)
    } finally {
      await app.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

async function main(): Promise<void> {
  await run('SQLite', {
    DATABASE_URL: path.join(mkdtempSync(path.join(tmpdir(), 'yx-bench-db-')), 'bench.sqlite'),
  })
  let cluster
  try {
    cluster = await startPgCluster()
  } catch (error) {
    console.log(`PostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`)
    return
  }
  try {
    await run('PostgreSQL', { DATABASE_URL: cluster.url })
  } finally {
    await cluster.stop()
  }
}

void main()
