import { createHash } from 'node:crypto'
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'

/*
 * The H5 build's id: a hash of what it is made from. It lives with the build config because the
 * config embeds it in the app (TARO_APP_H5_BUILD, the update check), and Taro loads only config/
 * files; scripts/lib/h5-build.ts stamps dist/h5/.source-hash with the same value.
 */

const ROOT = path.resolve(__dirname, '..')

/**
 * What the H5 build is made from; a change to any of it makes the build stale. package.json holds the
 * browserslist Babel compiles for; the lockfile stands for node_modules.
 */
const INPUTS = [
  'src',
  'contract',
  'config',
  'types',
  'babel.config.js',
  'tsconfig.json',
  'package.json',
  'package-lock.json',
]

/**
 * The id scripts/lib/h5-build.ts computed before starting the build, handed to the config through the
 * build's environment: the id the app embeds is then the one the stamp records, even though Taro adds
 * the `.env` files' variables to its own process environment before the config runs.
 */
export const H5_BUILD_ID_VAR = 'H5_BUILD_ID'

/** Taro's `.env`, `.env.local`, `.env.production`, ... at the root: they define TARO_APP_* too. */
function envFiles(root: string): string[] {
  return readdirSync(root)
    .filter((name) => name === '.env' || name.startsWith('.env.'))
    .map((name) => path.join(root, name))
    .filter((file) => statSync(file).isFile())
    .sort()
}

function files(root: string, entry: string): string[] {
  const full = path.join(root, entry)
  if (!existsSync(full)) return []
  if (statSync(full).isFile()) return [full]
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((file) => !file.split(path.sep).includes('__tests__'))
    .map((file) => path.join(full, file))
    .filter((file) => statSync(file).isFile())
    .sort()
}

/**
 * A content hash (not mtimes: a fresh clone gives every file a new mtime) of the inputs, the `.env`
 * files and every TARO_APP_* variable of `env` (the shell's reach the app too: config/app-env.ts).
 */
export function sourceHash(env: NodeJS.ProcessEnv = process.env, root: string = ROOT): string {
  const hash = createHash('sha256')
  for (const file of [...INPUTS.flatMap((entry) => files(root, entry)), ...envFiles(root)]) {
    hash.update(path.relative(root, file))
    hash.update('\0')
    hash.update(readFileSync(file))
    hash.update('\0')
  }
  const appVariables = Object.entries(env)
    .filter(([name, value]) => name.startsWith('TARO_APP_') && value !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
  hash.update(JSON.stringify(appVariables))
  return hash.digest('hex')
}

/** The id to embed in the H5 app: the one the build was started with, else computed here. */
export function h5BuildId(env: NodeJS.ProcessEnv = process.env): string {
  return env[H5_BUILD_ID_VAR] || sourceHash(env)
}
