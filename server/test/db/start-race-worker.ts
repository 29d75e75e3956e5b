/**
 * One server process for start-race.test.ts: it loads the server's code once, then on each message
 * starts the app the way server.ts does (buildApp: migrations, seeds, demo removal; ready: the job
 * runner, pg-boss and its queues on PostgreSQL), answers whether it got there, and closes it. Loading
 * the modules once keeps 20 rounds of 8 processes quick, while every round runs the real start-up.
 */
import os from 'node:os'
import path from 'node:path'
import { buildApp } from '../../src/app'
import { loadConfig } from '../../src/config'

export interface StartRequest {
  /** DATABASE_URL: a SQLite file or postgres://… */
  url: string
  /** DATABASE_SCHEMA on PostgreSQL. */
  schema?: string
  uploadDir: string
}

export type StartAnswer = { ok: true } | { ok: false; error: string }

async function startOnce(request: StartRequest): Promise<StartAnswer> {
  try {
    const config = loadConfig({
      DATABASE_URL: request.url,
      ...(request.schema ? { DATABASE_SCHEMA: request.schema } : {}),
      HOST: '127.0.0.1',
      NODE_ENV: 'development',
      DEMO_MODE: 'on',
      LOG_LEVEL: 'silent',
      UPLOAD_DIR: request.uploadDir,
      WEB_ROOT: path.join(os.tmpdir(), 'yx-start-race-no-web'),
    })
    const app = await buildApp(config)
    try {
      await app.ready()
    } finally {
      await app.close()
    }
    return { ok: true }
  } catch (error) {
    const code = (error as { code?: unknown }).code
    return { ok: false, error: `${String(code ?? '')} ${String(error)}`.trim() }
  }
}

process.on('message', (request: StartRequest) => {
  void startOnce(request).then((answer) => process.send?.(answer))
})
process.send?.('loaded')
