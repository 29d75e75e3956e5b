/**
 * `npm run bench:experts`: 找专家 (GET /main/experts) at 1,000 certified experts, 50 concurrent
 * clients, on SQLite and on PostgreSQL (a throwaway cluster, when PostgreSQL is installed). The
 * server runs in its own process (bench/server.ts) and is asked over HTTP, so the clients do not
 * share its event loop. The experts are written straight into the database and marked demo
 * (演示专家). Prints p50 / p99 and requests per second per case; passes or fails nothing.
 */
import { randomBytes, randomUUID } from 'node:crypto'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { sql } from 'kysely'
import { EXPERT_TITLES, SPECIALITY_OPTIONS } from '../contract/main/experts'
import { loadConfig } from '../server/src/config'
import { createDatabase, type DB } from '../server/src/db'
import { NEW_EXPERT_SETTINGS } from '../server/src/domain/experts/settings'
import { startPgCluster } from '../scripts/pg-cluster'
import { startBenchServer } from './server'

const EXPERTS = 1_000
const CLIENTS = 50
const REQUESTS_PER_CLIENT = 40

const SURNAMES = [...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗']
const GIVEN = ['建国', '志强', '秀英', '海燕', '文博', '晓明', '丽华', '国栋', '静怡', '子豪']
const DEPARTMENTS = ['放射科', '超声科', '核医学科', '心内科', '呼吸内科', '神经内科', '骨科']
const PLACES = [
  ['北京市', '北京市'],
  ['上海市', '上海市'],
  ['广东省', '广州市'],
  ['广东省', '深圳市'],
  ['浙江省', '杭州市'],
  ['四川省', '成都市'],
] as const

async function seedExperts(db: DB): Promise<void> {
  const at = new Date()
  const hospitals = PLACES.flatMap(([province, city], p) =>
    ['第一人民医院', '中心医院', '医科大学附属医院'].map((suffix, h) => ({
      id: `bench-hospital-${p}-${h}`,
      name: `${city.replace('市', '')}示范${suffix}（演示）`,
      level: '三级甲等',
      province,
      city,
      address: `${city}测试路 ${h + 1} 号（演示数据）`,
      sort_order: 100 + p * 3 + h,
      created_at: at.toISOString(),
      region_code: null,
      region_name: null,
      ai_reporting: 0,
      demo: 1,
    })),
  )
  await db.insertInto('hospitals').values(hospitals).execute()
  for (let batch = 0; batch < EXPERTS / 100; batch += 1) {
    const users = []
    const experts = []
    for (let i = 0; i < 100; i += 1) {
      const n = batch * 100 + i
      const id = randomUUID()
      const when = new Date(at.getTime() - n * 3_600_000).toISOString()
      const name = `${SURNAMES[n % SURNAMES.length]}${GIVEN[Math.floor(n / SURNAMES.length) % GIVEN.length]}`
      users.push({
        id,
        mobile: null,
        nickname: '演示专家',
        avatar_url: null,
        gender: 'unknown',
        role: 'expert',
        password_hash: null,
        wechat_openid: null,
        created_at: when,
        updated_at: when,
        deleted_at: null,
      })
      experts.push({
        user_id: id,
        application_id: `bench-${id}`,
        name,
        hospital_id: hospitals[n % hospitals.length]!.id,
        department: DEPARTMENTS[n % DEPARTMENTS.length]!,
        title: EXPERT_TITLES[n % EXPERT_TITLES.length]!,
        specialities: JSON.stringify([
          SPECIALITY_OPTIONS[n % SPECIALITY_OPTIONS.length],
          SPECIALITY_OPTIONS[(n * 7 + 3) % SPECIALITY_OPTIONS.length],
        ]),
        introduction: '演示专家，非真实医生。',
        certified_at: when,
        updated_at: when,
        // One in twenty suspended, one in five not accepting: the directory skips and orders them.
        suspended_at: n % 20 === 0 ? when : null,
        suspended_reason: n % 20 === 0 ? '演示' : null,
        suspended_by: null,
        photo_path: null,
        demo: 1,
        ...NEW_EXPERT_SETTINGS,
        accepting: n % 5 === 0 ? 0 : 1,
        imaging_enabled: n % 3 === 0 ? 0 : 1,
      })
    }
    await db.insertInto('users').values(users).execute()
    await db.insertInto('experts').values(experts).execute()
  }
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}

async function measure(url: string): Promise<string> {
  const ask = async () => {
    const response = await fetch(url)
    if (!response.ok) throw new Error(`${url} answered ${response.status}`)
    await response.arrayBuffer()
  }
  for (let i = 0; i < 20; i += 1) await ask()
  const times: number[] = []
  const started = performance.now()
  await Promise.all(
    Array.from({ length: CLIENTS }, async () => {
      for (let i = 0; i < REQUESTS_PER_CLIENT; i += 1) {
        const t0 = performance.now()
        await ask()
        times.push(performance.now() - t0)
      }
    }),
  )
  const elapsed = performance.now() - started
  times.sort((a, b) => a - b)
  const perSecond = (times.length / elapsed) * 1000
  return `p50 ${percentile(times, 50).toFixed(1).padStart(6)} ms  p99 ${percentile(times, 99).toFixed(1).padStart(6)} ms  ${perSecond.toFixed(0).padStart(5)} req/s`
}

const q = encodeURIComponent
const CASES: [string, string][] = [
  ['page 1, no filter', '/main/experts'],
  ['page 20, no filter', '/main/experts?page=20'],
  ['department 放射科', `/main/experts?department=${q('放射科')}`],
  ['province 广东省 + service imaging', `/main/experts?province=${q('广东省')}&service=imaging`],
  ['title chief + city 上海市', `/main/experts?title=chief&city=${q('上海市')}`],
  ['keyword 医科大学 (hospital part)', `/main/experts?keyword=${q('医科大学')}`],
  ['keyword 肺结节 (speciality)', `/main/experts?keyword=${q('肺结节')}`],
  ['keyword 王 (1 char)', `/main/experts?keyword=${q('王')}`],
  ['filters', '/main/experts/filters'],
]

async function run(label: string, databaseUrl: string | undefined): Promise<void> {
  // Demo mode off, so no demo records are pushed while it is measured (it then wants real keys).
  const server = await startBenchServer({
    DEMO_MODE: '0',
    SECRET_KEY: randomBytes(32).toString('base64'),
    ID_CARD_KEY: randomBytes(32).toString('base64'),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  })
  try {
    const url = databaseUrl ?? path.join(server.dataDir, 'bench.sqlite')
    const database = createDatabase(
      loadConfig({ DATABASE_URL: url, WEB_ROOT: server.dataDir }).database,
    )
    try {
      const t0 = performance.now()
      await seedExperts(database.db)
      // What autovacuum does soon after a bulk load (SQLite's planner needs no statistics).
      if (database.kind === 'postgres') await sql`analyze`.execute(database.db)
      console.log(
        `${label}: ${EXPERTS} experts written in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${CLIENTS} clients × ${REQUESTS_PER_CLIENT} requests per case`,
      )
    } finally {
      await database.destroy()
    }
    for (const [name, path] of CASES) {
      console.log(`  ${name.padEnd(36)} ${await measure(`${server.url}${path}`)}`)
    }
  } finally {
    await server.stop()
  }
}

async function main(): Promise<void> {
  await run('SQLite', undefined)
  let cluster
  try {
    cluster = await startPgCluster()
  } catch (error) {
    console.log(`PostgreSQL: skipped (${error instanceof Error ? error.message : String(error)})`)
    return
  }
  try {
    await run('PostgreSQL', cluster.url)
  } finally {
    await cluster.stop()
  }
}

void main()
