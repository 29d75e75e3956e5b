// test-server: no database
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { checkViewerBudget, containsText, VIEWER } from '../../../scripts/check-budgets'

/** The render core's marker as the weapp build writes Chinese text: \uXXXX escapes. */
const ESCAPED_MARKER = [...VIEWER.coreMarker]
  .map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
  .join('')

/** A minimal weapp build: app.json with the images subpackage, and `files` (path → text). */
function weappBuild(files: Record<string, string>, subPages = ['detail', 'viewer']): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-viewer-budget-'))
  writeFileSync(
    path.join(dir, 'app.json'),
    JSON.stringify({
      pages: ['pages/main/main'],
      subPackages: [{ root: `${VIEWER.subpackage}/`, pages: subPages }],
    }),
  )
  for (const [name, body] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true })
    writeFileSync(path.join(dir, name), body)
  }
  return dir
}

const GOOD = {
  'app.js': 'require("./common")',
  'common.js': 'var a="\\u9996\\u9875"',
  [`${VIEWER.page}.js`]: `var e="${ESCAPED_MARKER}";function r(){}`,
  [`${VIEWER.page}.json`]: '{"usingComponents":{}}',
  [`${VIEWER.page}.wxml`]: '<template is="taro_tmpl"/>',
  [`${VIEWER.subpackage}/detail.js`]: 'var d=1',
}

function withBuild(
  files: Record<string, string>,
  check: (dir: string) => void,
  subPages?: string[],
) {
  const dir = weappBuild(files, subPages)
  try {
    check(dir)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

test('containsText finds a text as written or with its non-ASCII characters escaped', () => {
  assert.ok(containsText(`x="${VIEWER.coreMarker}"`, VIEWER.coreMarker))
  assert.ok(containsText(`x="${ESCAPED_MARKER}"`, VIEWER.coreMarker))
  assert.ok(
    containsText(`x="${ESCAPED_MARKER.toUpperCase().replace(/\\U/g, '\\u')}"`, VIEWER.coreMarker),
  )
  assert.ok(!containsText('x="\\u5f71\\u50cf"', VIEWER.coreMarker))
})

test('a build with the viewer page and its core in the images subpackage meets the viewer budget', () => {
  withBuild(GOOD, (dir) => {
    const result = checkViewerBudget(dir)
    assert.deepEqual(result.failures, [])
    assert.deepEqual(result.coreFiles, [`${VIEWER.page}.js`])
    const pageBytes = [`${VIEWER.page}.js`, `${VIEWER.page}.json`, `${VIEWER.page}.wxml`].reduce(
      (sum, name) => sum + Buffer.byteLength(GOOD[name]!),
      0,
    )
    assert.equal(result.pageBytes, pageBytes)
    assert.equal(result.subpackageBytes, pageBytes + Buffer.byteLength('var d=1'))
  })
})

test('the render core in the main package fails: every user would download it at launch', () => {
  withBuild({ ...GOOD, 'common.js': `var e="${ESCAPED_MARKER}"` }, (dir) => {
    const { failures } = checkViewerBudget(dir)
    assert.equal(failures.length, 1)
    assert.match(failures[0]!, /渲染核心进了主包（common\.js）/)
  })
})

test('WebGL, an inlined WASM decoder, a .wasm file or a viewer library in the build fail', () => {
  withBuild(
    {
      ...GOOD,
      [`${VIEWER.subpackage}/sub-common/a.js`]: 'c.getContext("webgl")',
      [`${VIEWER.subpackage}/sub-common/b.js`]: 'var w="AGFzbQEAAAAB"',
      'vendors.js': 'var K=window.Konva',
      [`${VIEWER.subpackage}/codec.wasm`]: '\0asm',
    },
    (dir) => {
      const { failures } = checkViewerBudget(dir)
      assert.equal(failures.length, 4, failures.join('\n'))
      assert.ok(failures.some((f) => /sub-common\/a\.js 含有 WebGL/.test(f)))
      assert.ok(failures.some((f) => /sub-common\/b\.js 含有 内联的 WebAssembly/.test(f)))
      assert.ok(failures.some((f) => /vendors\.js 含有 查看器或解码库/.test(f)))
      assert.ok(failures.some((f) => /codec\.wasm/.test(f)))
    },
  )
})

test('a build without the viewer page, or without its core, fails with the reason', () => {
  const { [`${VIEWER.page}.js`]: _core, ...withoutCore } = GOOD
  withBuild(
    withoutCore,
    (dir) => {
      const { failures } = checkViewerBudget(dir)
      assert.equal(failures.length, 2, failures.join('\n'))
      assert.match(failures[0]!, /查看器页面 pages\/personalImage\/viewer 不在分包/)
      assert.match(failures[1]!, /找不到查看器的渲染核心/)
    },
    ['detail'],
  )
})

test('the images subpackage over 2 MB with the viewer fails', () => {
  withBuild(
    { ...GOOD, [`${VIEWER.subpackage}/sub-vendors.js`]: 'x'.repeat(VIEWER.subpackageBytes) },
    (dir) => {
      const { failures, subpackageBytes } = checkViewerBudget(dir)
      assert.ok(subpackageBytes > VIEWER.subpackageBytes)
      assert.equal(failures.length, 1)
      assert.match(failures[0]!, /分包 pages\/personalImage（含查看器）.* > 2048\.0 KB/)
    },
  )
})
