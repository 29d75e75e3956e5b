import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

/**
 * Jest's config is jest.config.ts (issue 6). Node 20 cannot load TypeScript by itself, so the
 * config names esbuild-register as its loader. These tests fail if the config goes back to
 * JavaScript, or if plain `jest` stops reading it.
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
    expect(pkg.scripts['test:unit']).toBe('jest')
    expect(readFileSync(join(ROOT, 'jest.config.ts'), 'utf8')).toContain(
      '@jest-config-loader esbuild-register',
    )
  })

  it('is what plain `jest` reads, typed and complete', () => {
    const run = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--showConfig'],
      { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
    )
    expect(run.status).toBe(0)
    const shown = JSON.parse(run.stdout) as {
      configs: { testEnvironment: string; setupFiles: string[]; roots: string[] }[]
    }
    const config = shown.configs[0]!
    expect(config.testEnvironment).toContain('jest-environment-jsdom')
    expect(config.roots.map((root) => root.replace(ROOT, ''))).toEqual(['/src', '/contract'])
    expect(config.setupFiles.some((file) => file.endsWith('jest/setup-env.js'))).toBe(true)
  })
})
