/**
 * Shared by the benches that need real server processes on one database with sockets to them
 * (bench/realtime.ts, bench/consultations.ts): a throwaway PostgreSQL cluster (or a SQLite file),
 * server processes (bench/realtime-server.ts: the app without the demo's background pushes, plus an
 * IPC hook to publish) started one after the other, signed-in sockets, and percentiles. Not a product module: nothing but the benches imports it.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import WebSocket from 'ws'
import {
  REALTIME_FULL_PATH,
  type RealtimeEvent,
  type RealtimeServerMessage,
} from '../contract/main/realtime'
import { freePort } from '../scripts/lib/free-port'
import { startPgCluster } from '../scripts/pg-cluster'

const ROOT = path.resolve(__dirname, '..')

export interface RealtimeBenchServer {
  url: string
  /** The process id (its CPU time: cpuSeconds). */
  pid: number
  /** Asks this process to `app.realtime.publish(userIds, event)`; resolves once it returned. */
  publish(userIds: string[], event: RealtimeEvent): Promise<void>
  stop(): Promise<void>
}

export interface ServerGroup {
  servers: RealtimeBenchServer[]
  /**
   * The environment every process was started with (DATABASE_URL, DATABASE_SCHEMA, demo mode, no
   * keys: the development keys): `loadConfig(env)` in the bench gives the servers' own database,
   * cipher and payment keys, so rows the bench writes read back the same in the servers.
   */
  env: NodeJS.ProcessEnv
  stop(): Promise<void>
}

async function startServer(env: NodeJS.ProcessEnv): Promise<RealtimeBenchServer> {
  const port = await freePort()
  // BENCH_SERVER_CPU_PROF=dir: each process writes a CPU profile there when it stops (as
  // bench/server.ts; open it in Chrome DevTools).
  const profile = process.env.BENCH_SERVER_CPU_PROF
  const child: ChildProcess = spawn(
    process.execPath,
    [
      ...(profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : []),
      '--import',
      'tsx',
      'bench/realtime-server.ts',
    ],
    {
      cwd: ROOT,
      env: { ...env, PORT: String(port) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  )
  const pending = new Map<number, () => void>()
  let next = 0
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server exited during start-up (${code})`)))
    child.on('message', (message: { type: string; id?: number }) => {
      if (message.type === 'listening') resolve()
      if (message.type === 'published') {
        pending.get(message.id!)?.()
        pending.delete(message.id!)
      }
    })
  })
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    publish: (userIds, event) =>
      new Promise((resolve) => {
        const id = (next += 1)
        pending.set(id, resolve)
        child.send({ type: 'publish', id, userIds, event })
      }),
    stop: async () => {
      if (child.exitCode !== null) return
      child.send({ type: 'stop' })
      await new Promise((resolve) => child.once('exit', resolve))
    },
  }
}

export interface ServerGroupOptions {
  /** How many processes (default 2). */
  count?: number
  /** 'postgres' (default): a throwaway cluster; 'sqlite': a file in the data directory. */
  database?: 'postgres' | 'sqlite'
}

/**
 * Server processes on one fresh database, in demo mode on loopback: PostgreSQL (a throwaway cluster,
 * a fresh schema) or SQLite (a file; one process is what SQLite is for). `stop` ends the processes,
 * the cluster and the data directory.
 */
export async function startServerGroup(
  name: string,
  options: ServerGroupOptions = {},
): Promise<ServerGroup> {
  const { count = 2, database = 'postgres' } = options
  const cluster = database === 'postgres' ? await startPgCluster() : undefined
  const dataDir = mkdtempSync(path.join(tmpdir(), `yx-bench-${name}-`))
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOST: '127.0.0.1',
    DATABASE_URL: cluster ? cluster.url : path.join(dataDir, 'bench.sqlite'),
    DATABASE_SCHEMA: cluster ? `bench_${name}_${randomBytes(4).toString('hex')}` : undefined,
    UPLOAD_DIR: path.join(dataDir, 'uploads'),
    NODE_ENV: 'development',
    DEMO_MODE: 'on',
    LOG_LEVEL: 'error',
    WEB_ROOT: path.join(dataDir, 'no-web-root'),
  }
  const servers: RealtimeBenchServer[] = []
  const stop = async () => {
    await Promise.all(servers.map((server) => server.stop()))
    await cluster?.stop()
    rmSync(dataDir, { recursive: true, force: true })
  }
  try {
    // One after the other: the first migrates and seeds the database, the others find it ready.
    for (let i = 0; i < count; i += 1) servers.push(await startServer(env))
  } catch (error) {
    await stop()
    throw error
  }
  return { servers, env, stop }
}

/** Opens a socket on `server` signed in with `token`; resolves once the server said ready. */
export function openSocket(
  server: Pick<RealtimeBenchServer, 'url'>,
  token: string,
  onEvent: (event: RealtimeEvent) => void,
): Promise<WebSocket> {
  const ws = new WebSocket(`${server.url.replace('http://', 'ws://')}${REALTIME_FULL_PATH}`)
  return new Promise((resolve, reject) => {
    ws.once('error', reject)
    ws.once('open', () => ws.send(JSON.stringify({ type: 'auth', token })))
    ws.on('message', (data) => {
      const message = JSON.parse(data.toString()) as RealtimeServerMessage
      if (message.type === 'ready') resolve(ws)
      else if (message.type === 'event') onEvent(message.event)
      else if (message.type === 'error') reject(new Error(message.message))
    })
  })
}

/** A process's CPU seconds so far, user + system (Linux /proc; NaN elsewhere). */
export function cpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
    // utime and stime (fields 14 and 15 of stat), in clock ticks of 1/100 s.
    return (Number(fields[11]) + Number(fields[12])) / 100
  } catch {
    return NaN
  }
}

/** The value at percentile `p` of an ascending list (nearest rank, as the other benches). */
export function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
