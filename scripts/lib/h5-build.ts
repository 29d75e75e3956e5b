import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const ROOT = path.resolve(__dirname, '..', '..')
const H5_DIR = path.join(ROOT, 'dist', 'h5')
const STAMP = path.join(H5_DIR, '.source-hash')

/** What the H5 build is made from; a change to any of it makes the build stale. */
const INPUTS = [
  'src',
  'contract',
  'config',
  'types',
  'babel.config.js',
  'tsconfig.json',
  'package-lock.json',
]

function files(entry: string): string[] {
  const full = path.join(ROOT, entry)
  if (!existsSync(full)) return []
  if (statSync(full).isFile()) return [full]
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((file) => !file.split(path.sep).includes('__tests__'))
    .map((file) => path.join(full, file))
    .filter((file) => statSync(file).isFile())
    .sort()
}

/** A content hash (not mtimes: a fresh clone gives every file a new mtime). */
export function sourceHash(): string {
  const hash = createHash('sha256')
  for (const file of INPUTS.flatMap(files)) {
    hash.update(path.relative(ROOT, file))
    hash.update(readFileSync(file))
  }
  return hash.digest('hex')
}

export function h5BuildIsCurrent(): boolean {
  return (
    existsSync(path.join(H5_DIR, 'index.html')) &&
    existsSync(STAMP) &&
    readFileSync(STAMP, 'utf8') === sourceHash()
  )
}

/** Builds the H5 app when it is missing or older than its sources. Returns false if the build failed. */
export function ensureH5Build(log: (line: string) => void = console.log): boolean {
  if (h5BuildIsCurrent()) return true
  log('正在构建 H5 应用（首次约 30 秒）…')
  const hash = sourceHash()
  const result = spawnSync('npx', ['taro', 'build', '--type', 'h5'], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) return false
  writeFileSync(STAMP, hash)
  return true
}

/** For build scripts: record that dist/h5 was just built from the current sources. */
export function stampH5Build(): void {
  writeFileSync(STAMP, sourceHash())
}
