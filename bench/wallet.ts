/**
 * `npm run bench:wallet`: issue 22's 交易记录 goal, on real server processes (bench/realtime-servers.ts).
 *
 * One expert with 10,000 entries on their accounts (ENTRIES): 20 real consultations of theirs written
 * through the domain (bench/consultations-seed.ts), then a year of income on them posted through the
 * ledger's own postTransfer, in the two shapes real use writes on an expert's accounts: a completion
 * (one entry: + 待结算) and a settlement (two: − 待结算, + 可提现), two completions to a settlement,
 * their times spread over the last 12 months. The money comes from a bench provider account instead of
 * each consultation's escrow (10,000 consultations would take the seed minutes and change nothing the
 * list reads); postTransfer writes the expert's statement lines with them (ledger_statement_lines, one
 * per transfer: what the list pages); the ledger's check (checkLedger, which also compares those lines
 * with the entries) holds before anything is measured and after.
 *
 * Measured (bench/list-load.ts): GET /main/wallet/trades (the first page, all kinds), the same
 * filtered by kind (收入结算) and by a month, at CLIENTS (50) concurrent clients, closed loop then an
 * open loop of 5 requests a second each, on PostgreSQL (two processes) and SQLite (one process).
 * Goal: p99 ≤ 25 ms (as the consultations' lists). Prints PASS / MISS; exits 0 either way (figures,
 * not a gate). Knobs (env): ENTRIES (10000), LIST_SECONDS (10), CLIENTS (50), SQLITE=0 to skip SQLite.
 */
import { performance } from 'node:perf_hooks'
import dayjs from 'dayjs'
import { loadConfig } from '../server/src/config'
import { createDatabase } from '../server/src/db'
import { ACCOUNTS, checkLedger, postTransfer } from '../server/src/domain/ledger'
import { seedConsultations } from './consultations-seed'
import { agent, type ListCase, measureList, printTable, settleDatabase } from './list-load'
import { startServerGroup } from './realtime-servers'

const ENTRIES = Number(process.env.ENTRIES ?? 10_000)
const GOAL_MS = 25

interface WalletWorld {
  token: string
  month: string
}

/** The expert, their 20 consultations, then ENTRIES entries of income on their accounts. */
async function seedWallet(env: NodeJS.ProcessEnv): Promise<WalletWorld> {
  const config = loadConfig(env)
  const world = await seedConsultations(
    config,
    { experts: 1, regulars: 1, perRegular: 20, singles: 0 },
    1,
  )
  const expert = world.experts[0]!
  const consultations = world.conversations.map((one) => one.id)
  const database = createDatabase(config.database)
  const started = performance.now()
  try {
    const db = database.db
    const source = ACCOUNTS.provider('bench')
    const pending = ACCOUNTS.expertPending(expert.id)
    const available = ACCOUNTS.expertAvailable(expert.id)
    const yearAgo = dayjs().subtract(12, 'month')
    // Two completions (1 entry each) then a settlement (2 entries) of their sum: 4 entries a round.
    const rounds = Math.ceil(ENTRIES / 4)
    const stepMs = (Date.now() - yearAgo.valueOf()) / (rounds * 3)
    let written = 0
    for (let round = 0; round < rounds; round += 1) {
      await db.transaction().execute(async (trx) => {
        for (let k = 0; k < 2; k += 1) {
          const at = new Date(yearAgo.valueOf() + (round * 3 + k) * stepMs)
          await postTransfer(
            trx,
            {
              eventKey: `bench-income:${round}:${k}`,
              kind: 'completion',
              consultationId: consultations[(round * 2 + k) % consultations.length]!,
              entries: [
                { account: source, amount: -8_000 },
                { account: pending, amount: 8_000 },
              ],
            },
            at,
          )
        }
        await postTransfer(
          trx,
          {
            eventKey: `bench-settle:${round}`,
            kind: 'settlement',
            consultationId: consultations[(round * 2) % consultations.length]!,
            entries: [
              { account: pending, amount: -16_000 },
              { account: available, amount: 16_000 },
            ],
          },
          new Date(yearAgo.valueOf() + (round * 3 + 2) * stepMs),
        )
      })
      written += 4
    }
    const check = await checkLedger(db, new Date())
    if (!check.ok) throw new Error(`ledger check failed: ${check.problems.join('; ')}`)
    console.log(
      `  seeded: 1 expert, ${consultations.length} consultations, ${written} entries on the expert's accounts over 12 months, in ${((performance.now() - started) / 1000).toFixed(1)} s; ledger check holds`,
    )
  } finally {
    await database.destroy()
  }
  return { token: expert.token, month: dayjs().subtract(3, 'month').format('YYYY-MM') }
}

const cases = (world: WalletWorld): ListCase[] => {
  const people = [{ token: world.token }]
  return [
    {
      what: '交易记录 (10,000 entries, all kinds)',
      path: '/main/wallet/trades',
      people,
      goalMs: GOAL_MS,
    },
    {
      what: '交易记录 收入结算 only',
      path: '/main/wallet/trades?kind=settlement',
      people,
      goalMs: GOAL_MS,
    },
    {
      what: `交易记录 one month (${world.month})`,
      path: `/main/wallet/trades?month=${world.month}`,
      people,
      goalMs: GOAL_MS,
    },
  ]
}

async function run(label: string, options: Parameters<typeof startServerGroup>[1]): Promise<void> {
  console.log(label)
  const group = await startServerGroup('wallet', options)
  try {
    const world = await seedWallet(group.env)
    await settleDatabase(group.env)
    const setup = options?.database === 'sqlite' ? 'SQLite, 1 process' : 'PostgreSQL, 2 processes'
    for (const list of cases(world)) await measureList(group.servers, list, setup)
    const database = createDatabase(loadConfig(group.env).database)
    try {
      const check = await checkLedger(database.db, new Date())
      console.log(`  ledger check after the run: ${check.ok ? 'holds' : check.problems.join('; ')}`)
    } finally {
      await database.destroy()
    }
  } finally {
    await group.stop()
  }
}

async function main(): Promise<void> {
  console.log(`Wallet bench: ${ENTRIES} entries, 50 clients\n`)
  await run('PostgreSQL (throwaway cluster), 2 server processes', {})
  if (process.env.SQLITE !== '0') {
    await run('SQLite, 1 server process', { database: 'sqlite', count: 1 })
  }
  printTable()
}

main()
  .finally(() => agent.destroy())
  .then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error)
      printTable()
      process.exit(1)
    },
  )
