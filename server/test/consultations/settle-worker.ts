/**
 * One server process for the consultation fault tests (kill.test.ts, two-processes.test.ts), started
 * with `fork` (IPC). It builds the whole app (buildApp: routes, job runner with the consultation job
 * kinds) on the test's database and runs its jobs; it does not listen (the tests drive it through
 * the database and IPC). What differs from server.ts is test-only and lives here:
 *
 * - the clock: `CLOCK_AT` (ISO) is the app's time, standing still until the parent sends
 *   `{ advance: ms }`, so deadlines pass when the test says (the runner's leases keep the real clock);
 * - the payment provider: 演示支付 (its refunds succeed at once and answer the same refund id for the
 *   same refund number), each refund call appended to `PROVIDER_LOG` as a JSON line;
 * - `PAUSE_AT`, unset by default, stops this process at a real point in the middle of settling, so
 *   the parent can kill it there:
 *     `ledger-transfer`  after the first ledger transfer's row is written, before its entries, inside
 *                        the job's transaction (a Kysely plugin on this process's handle only);
 *     `refund-provider`  after the provider accepted a refund, before the job records the result.
 *   It sends `{ paused }` to the parent and never goes on.
 *
 * The parent may send `{ sweep: true }` (look for due jobs now) and `{ stop: true }` (close and exit).
 */
import { appendFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type {
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from 'kysely'
import { buildApp } from '../../src/app'
import { type DatabaseConfig, loadConfig } from '../../src/config'
import { createDatabase } from '../../src/db'
import { demoPaymentProvider } from '../../src/providers/payments/demo'

export interface WorkerEnv {
  /** JSON of the DatabaseConfig (the test's SQLite file or PostgreSQL schema). */
  WORKER_DATABASE: string
  CLOCK_AT: string
  UPLOAD_DIR: string
  PROVIDER_LOG: string
  PAUSE_AT?: 'ledger-transfer' | 'refund-provider'
}

export type WorkerMessage =
  { ready: true; pid: number } | { paused: string; detail?: unknown } | { failed: string }

const env = process.env as unknown as WorkerEnv
const pauseAt = env.PAUSE_AT
let time = Date.parse(env.CLOCK_AT)
const now = () => new Date(time)

const send = (message: WorkerMessage) => process.send?.(message)
/** Stops here for good: the parent kills the process. */
const pause = (what: string, detail?: unknown) => {
  send({ paused: what, detail })
  return new Promise<never>(() => {})
}

function pauseAfterFirstTransfer(): KyselyPlugin {
  const watched = new WeakSet<object>()
  let paused = false
  return {
    transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
      const node = args.node
      if (
        !paused &&
        node.kind === 'InsertQueryNode' &&
        node.into?.table.identifier.name === 'ledger_transfers'
      ) {
        watched.add(args.queryId)
      }
      return node
    },
    async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
      if (!paused && watched.has(args.queryId)) {
        paused = true
        return pause('ledger-transfer')
      }
      return args.result
    },
  }
}

async function main() {
  const database = JSON.parse(env.WORKER_DATABASE) as DatabaseConfig
  // The same configuration as the test's own app (helpers.ts testConfig), on the shared database.
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:' }),
    database,
    uploadDir: env.UPLOAD_DIR,
    webRoot: path.join(os.tmpdir(), `yingxiang-no-web-root-worker-${process.pid}`),
  }
  const handle = createDatabase(database)
  const demo = demoPaymentProvider(config.secretKey, now)
  const app = await buildApp(config, {
    now,
    database:
      pauseAt === 'ledger-transfer'
        ? { ...handle, db: handle.db.withPlugin(pauseAfterFirstTransfer()) }
        : handle,
    providers: {
      payments: {
        ...demo,
        async refund(input) {
          const result = await demo.refund(input)
          appendFileSync(
            env.PROVIDER_LOG,
            `${JSON.stringify({ pid: process.pid, refundNo: input.outRefundNo, refundId: result.refundId, fen: input.refundFen })}\n`,
          )
          if (pauseAt === 'refund-provider') return pause('refund-provider', input.outRefundNo)
          return result
        },
      },
    },
  })
  await app.ready()
  process.on('message', (message: { advance?: number; sweep?: boolean; stop?: boolean }) => {
    if (message.advance) time += message.advance
    if (message.sweep) void app.jobs.sweep()
    if (message.stop) void app.close().then(() => process.exit(0))
  })
  send({ ready: true, pid: process.pid })
}

main().catch((error: unknown) => {
  send({ failed: String((error as Error).stack ?? error) })
  process.exit(1)
})
