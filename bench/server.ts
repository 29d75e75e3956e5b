/**
 * The real server in its own process on a fresh SQLite database, for the bench (so compression and
 * argon2 do not share the bench's event loop). Demo mode on loopback, whatever the caller's NODE_ENV.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { freePort } from '../scripts/lib/free-port'

const ROOT = path.resolve(__dirname, '..')

export interface BenchServer {
  url: string
  /** The server process, for its memory (memoryOf). */
  pid: number
  /** Its database, objects (uploads/) and anything the bench puts there; removed by stop. */
  dataDir: string
  /** Spawn to the first healthy answer, migrations and demo seed included. */
  startMs: number
  /** How the process ended, if it did ('exit code 1', 'signal SIGKILL'): why a request failed. */
  ended(): string | undefined
  stop(): Promise<void>
}

export interface BenchServerOptions {
  /** Keep the server's stdout in this file (why it died, if it did); otherwise it is dropped. */
  logFile?: string
}

/** VmRSS and VmHWM (resident high-water mark) of a process, MB (Linux /proc). */
export function memoryOf(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(status)?.[1] ?? 0)
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 }
}

/** `env` adds to or overrides the defaults (e.g. WEB_ROOT, TRUST_PROXY). */
export async function startBenchServer(
  env: Record<string, string> = {},
  options: BenchServerOptions = {},
): Promise<BenchServer> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'yx-bench-'))
  const port = await freePort()
  const started = performance.now()
  // BENCH_SERVER_CPU_PROF=dir: the server writes a CPU profile there when it stops (open it in
  // Chrome DevTools); NODE_OPTIONS cannot carry --cpu-prof.
  const profile = process.env.BENCH_SERVER_CPU_PROF
  const args = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []
  const child: ChildProcess = spawn(
    process.execPath,
    [...args, '--import', 'tsx', 'server/src/server.ts'],
    {
      cwd: ROOT,
      env: {
        ...process.env,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: path.join(dataDir, 'bench.sqlite'),
        UPLOAD_DIR: path.join(dataDir, 'uploads'),
        NODE_ENV: 'development',
        DEMO_MODE: 'on',
        LOG_LEVEL: 'warn',
        WEB_ROOT: path.join(dataDir, 'no-web-root'),
        ...env,
      },
      stdio: options.logFile ? ['ignore', openSync(options.logFile, 'w'), 'inherit'] : 'ignore',
    },
  )
  const url = `http://127.0.0.1:${port}`
  for (;;) {
    if (child.exitCode !== null) {
      rmSync(dataDir, { recursive: true, force: true })
      throw new Error('server exited during start-up')
    }
    try {
      if ((await fetch(`${url}/health`)).ok) break
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  const startMs = performance.now() - started
  let ended: string | undefined
  child.once('exit', (code, signal) => {
    ended = signal ? `signal ${signal}` : `exit code ${code}`
  })
  return {
    url,
    ended: () => ended,
    pid: child.pid!,
    dataDir,
    startMs,
    stop: async () => {
      child.kill('SIGTERM')
      if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve))
      rmSync(dataDir, { recursive: true, force: true })
    },
  }
}

/** The demo patient seeded in demo mode (README, Demo accounts). */
export const DEMO_PATIENT = '13800000001'
const DEMO_PASSWORD = 'demo1234'

/** The demo patient's password login request (argon2id on the server: slow on purpose). */
export const demoLoginRequest: RequestInit = {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ grant_type: 'password', username: DEMO_PATIENT, password: DEMO_PASSWORD }),
}

/** Signs the demo patient in on `url` and returns the access token. */
export async function demoLogin(url: string): Promise<string> {
  const response = await fetch(`${url}/sso/oauth2/token`, demoLoginRequest)
  const body = (await response.json()) as { data: { access_token: string } | null; error: string }
  if (!response.ok || !body.data) throw new Error(`demo login: ${response.status} ${body.error}`)
  return body.data.access_token
}
