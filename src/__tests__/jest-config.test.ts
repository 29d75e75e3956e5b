import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Jest's config is jest.config.ts (issue 6). Node 20 cannot load TypeScript by itself and Jest's
 * own fallbacks (ts-node, esbuild-register) are not dependencies, so `npm run test:unit` preloads
 * jest/ts-config.cjs, which lets tsx (a dependency already) compile it. These tests fail if the
 * config goes back to JavaScript, or if the loader stops producing the config.
 */

const ROOT = join(__dirname, '..', '..')

describe('jest.config.ts', () => {
  it('is the only Jest config', () => {
    expect(existsSync(join(ROOT, 'jest.config.ts'))).toBe(true)
    for (const other of ['js', 'cjs', 'mjs', 'json']) {
      expect(existsSync(join(ROOT, `jest.config.${other}`))).toBe(false)
    }
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
      jest?: unknown
      scripts: Record<string, string>
    }
    expect(pkg.jest).toBeUndefined()
    expect(pkg.scripts['test:unit']).toContain('jest/ts-config.cjs')
  })

  it('loads through jest/ts-config.cjs in a plain Node process, typed and complete', () => {
    const script = [
      "require('./jest/ts-config.cjs')",
      "const loaded = require('./jest.config.ts')",
      'const config = loaded.default ?? loaded',
      'process.stdout.write(JSON.stringify({ typescript: Boolean(process.features.typescript), config }))',
    ].join(';')
    const run = spawnSync(process.execPath, ['-e', script], { cwd: ROOT, encoding: 'utf8' })
    expect(run.stderr).toBe('')
    const { typescript, config } = JSON.parse(run.stdout) as {
      typescript: boolean
      config: { testEnvironment: string; setupFiles: string[]; roots: string[] }
    }
    expect(typescript).toBe(true)
    expect(config.testEnvironment).toBe('jsdom')
    expect(config.roots).toEqual(['<rootDir>/src', '<rootDir>/contract'])
    expect(config.setupFiles).toEqual(['<rootDir>/jest/setup-env.js'])
  })
})
