import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/*
 * The H5 build's id: a hash of what it is made from. It lives with the build config because the
 * config embeds it in the app (TARO_APP_H5_BUILD, the update check), and Taro loads only config/
 * files; scripts/lib/h5-build.ts stamps dist/h5/.source-hash with the same value.
 */

const ROOT = path.resolve(__dirname, '..')

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
