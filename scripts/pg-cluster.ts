/**
 * A throwaway PostgreSQL cluster for tests: initdb into a temp directory, start on a free port on
 * 127.0.0.1 with trust auth, create one database, and remove everything on stop.
 *
 *   npx tsx scripts/pg-cluster.ts      starts one, prints its DATABASE_URL, stops on Ctrl-C
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import pg from 'pg'
import { freePort } from './lib/free-port'

export interface PgCluster {
  /** postgres://postgres@127.0.0.1:<port>/<database> */
  url: string
  /** The cluster's data directory (its postmaster.pid names the server process, for the bench). */
  dataDir: string
  stop(): Promise<void>
}

export class PgMissingError extends Error {
  override name = 'PgMissingError'
}

const DATABASE = 'yingxiang_test'

/** The directory holding initdb and pg_ctl: Debian's versioned directories first, then PATH. */
export function findPgBin(): string | undefined {
  const debian = '/usr/lib/postgresql'
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((name) => existsSync(path.join(debian, name, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a))
    if (versions[0]) return path.join(debian, versions[0], 'bin')
  }
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')))
      return dir
  }
  return undefined
}

export async function startPgCluster(): Promise<PgCluster> {
  const bin = findPgBin()
  if (!bin) {
    throw new PgMissingError(
      'PostgreSQL server binaries (initdb, pg_ctl) not found.\n' +
        'Install them with: apt-get install -y postgresql\n' +
        '(or put initdb and pg_ctl on PATH).',
    )
  }

  // initdb refuses to run as root, so as root the cluster belongs to the `postgres` system user.
  const asRoot = process.getuid?.() === 0
  const owner = asRoot ? systemUser('postgres') : undefined
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-pg-'))
  const dataDir = path.join(dir, 'data')
  const logFile = path.join(dir, 'server.log')
  if (owner) chownSync(dir, owner.uid, owner.gid)

  const run = (tool: string, args: string[]) => {
    const command = asRoot ? 'runuser' : path.join(bin, tool)
    const fullArgs = asRoot ? ['-u', 'postgres', '--', path.join(bin, tool), ...args] : args
    const result = spawnSync(command, fullArgs, { encoding: 'utf8', cwd: dir })
    if (result.status !== 0) {
      throw new Error(
        `${tool} failed (exit ${result.status}):\n${result.stderr || result.stdout || result.error}`,
      )
    }
  }

  let started = false
  const cleanup = () => {
    if (started) {
      try {
        run('pg_ctl', ['-D', dataDir, '-m', 'immediate', '-w', 'stop'])
      } catch {
        // Already gone; removing the directory is what matters.
      }
      started = false
    }
    rmSync(dir, { recursive: true, force: true })
  }

  try {
    // C collation (byte order, as before) but a UTF-8 character class, so pg_trgm indexes Chinese
    // characters (migration 0016-search) as a production database created per README does.
    run('initdb', [
      '-D',
      dataDir,
      '--auth=trust',
      '-U',
      'postgres',
      '-E',
      'UTF8',
      '--locale=C',
      '--lc-ctype=C.UTF-8',
    ])
    const port = await freePort()
    // The socket goes into our temp dir, so parallel clusters and a system server never collide;
    // fsync off because the cluster is thrown away; 300 connections because the server test files run
    // several at a time, each with its apps' pools, and some start eight servers (test-server.ts).
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300`
    run('pg_ctl', ['-D', dataDir, '-l', logFile, '-w', '-t', '60', '-o', serverOptions, 'start'])
    started = true

    const admin = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', database: 'postgres' })
    await admin.connect()
    try {
      await admin.query(`create database ${DATABASE}`)
    } finally {
      await admin.end()
    }
    const url = `postgres://postgres@127.0.0.1:${port}/${DATABASE}`
    return {
      url,
      dataDir,
      stop: async () => cleanup(),
    }
  } catch (error) {
    cleanup()
    throw error
  }
}

function systemUser(name: string): { uid: number; gid: number } {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }).trim())
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }).trim())
    return { uid, gid }
  } catch {
    throw new PgMissingError(
      `Running as root, but there is no "${name}" system user to own the cluster.\n` +
        'Install PostgreSQL with: apt-get install -y postgresql (it creates the user).',
    )
  }
}

if (require.main === module) {
  startPgCluster().then(
    (cluster) => {
      console.log(`DATABASE_URL=${cluster.url}`)
      console.log('Press Ctrl-C to stop and delete the cluster.')
      const stop = () => void cluster.stop().then(() => process.exit(0))
      process.once('SIGINT', stop)
      process.once('SIGTERM', stop)
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error)
      process.exit(1)
    },
  )
}
