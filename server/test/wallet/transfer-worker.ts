/**
 * One server process for the wallet's kill -9 tests (kill.test.ts), started with `fork` (IPC). It
 * builds the whole app (routes, the job runner with the wallet's job kind) on the test's database,
 * with the 演示提现 provider, whose bills live in that database too (so the next process sees them).
 * It does not listen: the parent sends requests over IPC (`{ inject }`) and drives its clock.
 *
 * - the clock: `CLOCK_AT` (ISO), standing still until the parent sends `{ advance: ms }`;
 * - `PAUSE_AT` stops this process for good at a real point, for the parent to kill it there:
 *     `create`   a withdrawal is held and committed; the provider is about to be asked (never is);
 *     `success`  the provider answered SUCCESS to the job's query; nothing is posted yet.
 *   It sends `{ paused }` to the parent and never goes on.
 *
 * The parent may send `{ sweep: true }` (look for due jobs now) and `{ stop: true }`.
 */
import os from 'node:os'
import path from 'node:path'
import { buildApp } from '../../src/app'
import { type DatabaseConfig, loadConfig } from '../../src/config'
import type { TransferProvider } from '../../src/providers/transfers'

export interface TransferWorkerEnv {
  WORKER_DATABASE: string
  CLOCK_AT: string
  UPLOAD_DIR: string
  PAUSE_AT?: 'create' | 'success'
}

export type TransferWorkerMessage =
  | { ready: true; pid: number }
  | { paused: string; detail?: unknown }
  | { injected: { status: number; body: string }; id: number }
  | { failed: string }

const env = process.env as unknown as TransferWorkerEnv
let time = Date.parse(env.CLOCK_AT)
const now = () => new Date(time)
const send = (message: TransferWorkerMessage) => process.send?.(message)
const pause = (what: string, detail?: unknown) => {
  send({ paused: what, detail })
  return new Promise<never>(() => {})
}

async function main() {
  const database = JSON.parse(env.WORKER_DATABASE) as DatabaseConfig
  const config = {
    ...loadConfig({ LOG_LEVEL: 'silent', DATABASE_URL: ':memory:' }),
    database,
    uploadDir: env.UPLOAD_DIR,
    webRoot: path.join(os.tmpdir(), `yingxiang-no-web-root-worker-${process.pid}`),
  }
  const app = await buildApp(config, { now })
  const demo = app.providers.transfers
  const paused: TransferProvider = {
    ...demo,
    async createTransfer(input) {
      if (env.PAUSE_AT === 'create') return pause('create', input.outBillNo)
      return demo.createTransfer(input)
    },
    async queryTransfer(outBillNo) {
      const result = await demo.queryTransfer(outBillNo)
      if (env.PAUSE_AT === 'success' && result?.state === 'SUCCESS')
        return pause('success', outBillNo)
      return result
    },
  }
  app.providers.transfers = paused
  await app.ready()
  process.on(
    'message',
    (message: {
      advance?: number
      sweep?: boolean
      stop?: boolean
      inject?: { id: number; method: 'GET' | 'POST'; url: string; token: string; payload?: object }
    }) => {
      if (message.advance) time += message.advance
      if (message.sweep) void app.jobs.sweep()
      if (message.inject) {
        const { id, method, url, token, payload } = message.inject
        void app
          .inject({
            method,
            url,
            headers: { authorization: `Bearer ${token}` },
            ...(payload ? { payload } : {}),
          })
          .then((res) => send({ injected: { status: res.statusCode, body: res.body }, id }))
      }
      if (message.stop) void app.close().then(() => process.exit(0))
    },
  )
  send({ ready: true, pid: process.pid })
}

main().catch((error: unknown) => {
  send({ failed: String((error as Error).stack ?? error) })
  process.exit(1)
})
