/**
 * End-to-end tests: starts the app as a newcomer would (`npm start`'s script, on a free port and a
 * throwaway database), then runs e2e/*.test.ts (or those named by words after `--`) with node's test
 * runner against it in Chromium.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { freePort } from './lib/free-port'

const ROOT = path.resolve(__dirname, '..')

async function waitForHealth(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`npm start exited with ${child.exitCode}`)
    try {
      const response = await fetch(`${url}/health`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`server did not answer ${url}/health within ${timeoutMs} ms`)
}

async function main(): Promise<number> {
  const only = process.argv.slice(2)
  const port = await freePort()
  const dataDir = mkdtempSync(path.join(tmpdir(), 'yx-e2e-'))
  const baseUrl = `http://127.0.0.1:${port}`
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: path.join(dataDir, 'e2e.sqlite'),
      LOG_LEVEL: 'warn',
      // The consultation journey steps the clock past an expert's accept deadline.
      TEST_CLOCK: '1',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  try {
    await waitForHealth(baseUrl, server, 180_000)
    const files = readdirSync(path.join(ROOT, 'e2e'))
      .filter((file) => file.endsWith('.test.ts'))
      // `npm run test:e2e -- wallet consult`: only the files whose names contain one of the words.
      .filter((file) => only.length === 0 || only.some((word) => file.includes(word)))
      .map((file) => path.join('e2e', file))
      .sort()
    return await new Promise<number>((resolve) => {
      const runner = spawn(
        process.execPath,
        // Force-exit and a per-test bound: a hang names its test instead of using up CI's time.
        [
          '--import',
          'tsx',
          '--test',
          '--test-concurrency=1',
          '--test-force-exit',
          '--test-timeout=300000',
          ...files,
        ],
        {
          cwd: ROOT,
          env: { ...process.env, E2E_BASE_URL: baseUrl },
          stdio: 'inherit',
        },
      )
      runner.on('exit', (code) => resolve(code ?? 1))
    })
  } finally {
    server.kill('SIGTERM')
    await new Promise((resolve) => server.once('exit', resolve).once('error', resolve))
    rmSync(dataDir, { recursive: true, force: true })
  }
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  },
)
