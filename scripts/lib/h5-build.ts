import { type ChildProcess, spawn } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { H5_BUILD_ID_VAR, sourceHash } from '../../config/source-hash'

const ROOT = path.resolve(__dirname, '..', '..')
const H5_DIR = path.join(ROOT, 'dist', 'h5')
const STAMP = '.source-hash'
/** Taro's CLI itself: `npx` would first start npm (a second or two of CPU) only to find it. */
const TARO_CLI = path.join(ROOT, 'node_modules', '@tarojs', 'cli', 'bin', 'taro')

export { sourceHash }

/**
 * Whether `dir` holds a finished build of exactly these inputs (`id`, from sourceHash: sources,
 * config, lockfile, `.env` files and TARO_APP_* variables). The stamp is written only after a build
 * succeeded, so a build stopped half-way is never taken for current.
 */
export function h5BuildIsCurrent(id: string = sourceHash(), dir: string = H5_DIR): boolean {
  const stamp = path.join(dir, STAMP)
  return (
    existsSync(path.join(dir, 'index.html')) &&
    existsSync(stamp) &&
    readFileSync(stamp, 'utf8') === id
  )
}

export interface TaroBuild {
  child: ChildProcess
  /** True when the build succeeded (and, for H5, dist/h5 was stamped with its id). */
  done: Promise<boolean>
}

/**
 * Starts a production build of one target in a child process. For H5 the id is computed first, handed
 * to the config (the app embeds it) and written to dist/h5/.source-hash once the build succeeded.
 */
export function startTaroBuild(
  type: 'h5' | 'weapp',
  env: NodeJS.ProcessEnv = process.env,
): TaroBuild {
  const id = type === 'h5' ? sourceHash(env) : undefined
  const child = spawn(process.execPath, [TARO_CLI, 'build', '--type', type], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...env, NODE_ENV: 'production', ...(id ? { [H5_BUILD_ID_VAR]: id } : {}) },
  })
  const done = new Promise<boolean>((resolve) => {
    child.once('error', () => resolve(false))
    child.once('exit', (code) => {
      if (code === 0 && id) writeFileSync(path.join(H5_DIR, STAMP), id)
      resolve(code === 0)
    })
  })
  return { child, done }
}

/** What a newcomer reads while the first build runs (the figure is measured by bench/start.ts). */
export const BUILDING_MESSAGE = '正在构建 H5 应用（首次约 1 分钟）…'

/** Builds the H5 app when it is missing or older than its inputs. Resolves false if the build failed. */
export async function ensureH5Build(log: (line: string) => void = console.log): Promise<boolean> {
  if (h5BuildIsCurrent()) return true
  log(BUILDING_MESSAGE)
  return startTaroBuild('h5').done
}
