import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { sourceHash } from '../../config/source-hash'

const ROOT = path.resolve(__dirname, '..', '..')
const H5_DIR = path.join(ROOT, 'dist', 'h5')
const STAMP = path.join(H5_DIR, '.source-hash')

export { sourceHash }

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
