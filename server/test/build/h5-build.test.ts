// test-server: no database
/**
 * `npm start` skips the H5 build when dist/h5 was built from exactly the current inputs (issue 18: a
 * second start takes seconds, not a build), and builds again when any input changed: a source file,
 * the config, package.json or the lockfile, a `.env` file, or a TARO_APP_* variable of the shell.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import { sourceHash } from '../../../config/source-hash'
import { h5BuildIsCurrent } from '../../../scripts/lib/h5-build'

const trees: string[] = []
after(() => trees.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** A checkout in miniature: what the hash reads. */
function checkout(): string {
  const root = mkdtempSync(path.join(tmpdir(), 'yx-h5-build-'))
  trees.push(root)
  const files: Record<string, string> = {
    'src/app.ts': 'export const home = "医影通"\n',
    'src/__tests__/app.test.ts': 'test("x", () => {})\n',
    'config/index.ts': 'export default {}\n',
    'package.json': '{"browserslist":["defaults"]}\n',
    'package-lock.json': '{"lockfileVersion":3}\n',
  }
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(root, file)), { recursive: true })
    writeFileSync(path.join(root, file), text)
  }
  return root
}

const SHELL = { HOME: '/root', PATH: '/usr/bin' }

describe('the H5 build id (sourceHash)', () => {
  test('nothing changed: the same id, whatever else the environment holds', () => {
    const root = checkout()
    const id = sourceHash(SHELL, root)
    assert.equal(sourceHash({ ...SHELL }, root), id)
    assert.equal(sourceHash({ ...SHELL, PORT: '9000', DATABASE_URL: 'x.sqlite' }, root), id)
    // Tests are not part of the app.
    writeFileSync(path.join(root, 'src/__tests__/app.test.ts'), 'test("y", () => {})\n')
    assert.equal(sourceHash(SHELL, root), id)
  })

  test('a changed source, config, package.json or lockfile gives a new id', () => {
    for (const file of ['src/app.ts', 'config/index.ts', 'package.json', 'package-lock.json']) {
      const root = checkout()
      const id = sourceHash(SHELL, root)
      writeFileSync(path.join(root, file), '\n', { flag: 'a' })
      assert.notEqual(sourceHash(SHELL, root), id, file)
    }
  })

  test('a new source file gives a new id', () => {
    const root = checkout()
    const id = sourceHash(SHELL, root)
    writeFileSync(path.join(root, 'src/new.ts'), 'export {}\n')
    assert.notEqual(sourceHash(SHELL, root), id)
  })

  test('a .env file or a TARO_APP_* variable of the shell gives a new id (they reach the app)', () => {
    const root = checkout()
    const id = sourceHash(SHELL, root)
    const withOrigin = sourceHash(
      { ...SHELL, TARO_APP_API_ORIGIN: 'https://api.example.com' },
      root,
    )
    assert.notEqual(withOrigin, id)
    assert.notEqual(
      sourceHash({ ...SHELL, TARO_APP_API_ORIGIN: 'https://other.example.com' }, root),
      withOrigin,
    )
    writeFileSync(path.join(root, '.env.production'), 'TARO_APP_HOST_CONSULT=https://c.example\n')
    assert.notEqual(sourceHash(SHELL, root), id)
  })
})

describe('whether dist/h5 is current (h5BuildIsCurrent)', () => {
  const built = (stamp?: string, index = true) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'yx-h5-dist-'))
    trees.push(dir)
    if (index) writeFileSync(path.join(dir, 'index.html'), '<!doctype html>')
    if (stamp !== undefined) writeFileSync(path.join(dir, '.source-hash'), stamp)
    return dir
  }

  test('a finished build of these inputs is current: the start skips the build', () => {
    assert.equal(h5BuildIsCurrent('a'.repeat(64), built('a'.repeat(64))), true)
  })

  test('a build of other inputs, an unstamped (unfinished) build or none is not', () => {
    assert.equal(h5BuildIsCurrent('a'.repeat(64), built('b'.repeat(64))), false)
    assert.equal(h5BuildIsCurrent('a'.repeat(64), built()), false)
    assert.equal(h5BuildIsCurrent('a'.repeat(64), built('a'.repeat(64), false)), false)
  })

  test('a changed source makes the stamped build stale', () => {
    const root = checkout()
    const dist = built(sourceHash(SHELL, root))
    assert.equal(h5BuildIsCurrent(sourceHash(SHELL, root), dist), true)
    writeFileSync(path.join(root, 'src/app.ts'), 'export const home = "医影通 2"\n')
    assert.equal(h5BuildIsCurrent(sourceHash(SHELL, root), dist), false)
  })
})
