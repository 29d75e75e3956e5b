// test-server: no database
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { brotliCompressSync } from 'node:zlib'
import { injectFirstPaint } from '../../../config/first-paint'
import { BUDGETS, firstScreenBytes, hasFirstPaint } from '../../../scripts/check-budgets'

test('the first-screen budget counts the brotli files the server sends, and flags missing ones', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-budget-'))
  try {
    mkdirSync(path.join(dir, 'js'))
    const app = 'console.log("app");'.repeat(500)
    const files: Record<string, string> = {
      'index.html': '<!doctype html><title>医影通</title>',
      'js/app.1.js': app,
      'js/home.2.js': 'x'.repeat(4000),
    }
    for (const [name, body] of Object.entries(files)) writeFileSync(path.join(dir, name), body)
    writeFileSync(path.join(dir, 'index.html.br'), brotliCompressSync(files['index.html']!))
    writeFileSync(path.join(dir, 'js/app.1.js.br'), brotliCompressSync(app))
    writeFileSync(
      path.join(dir, '.build-meta.json'),
      JSON.stringify({ connectSrc: [], firstScreen: Object.keys(files) }),
    )
    const first = firstScreenBytes(dir)
    const appBrotli = brotliCompressSync(app).length
    assert.deepEqual(
      first.files.map((f) => [f.file, f.brotli]),
      [
        ['index.html', true],
        ['js/app.1.js', true],
        ['js/home.2.js', false],
      ],
    )
    assert.equal(first.files[1]!.bytes, appBrotli)
    assert.equal(first.bytes, brotliCompressSync(files['index.html']!).length + appBrotli + 4000)
    // 4 KB of text without its .br: the build's compression step did not run.
    assert.deepEqual(first.uncompressed, ['js/home.2.js'])
    assert.ok(BUDGETS.h5FirstScreenBrotli >= 100 * 1024)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('a build without the first-screen list says how to make one', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-budget-'))
  try {
    assert.throws(() => firstScreenBytes(dir), /npm run build:h5/)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})

test('budgets fail an index.html without the home’s prerendered first paint', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'yingxiang-budget-'))
  try {
    const plain = '<!doctype html><head></head><body><div id="app"></div></body>'
    writeFileSync(path.join(dir, 'index.html'), plain)
    assert.equal(hasFirstPaint(dir), false)
    writeFileSync(
      path.join(dir, 'index.html'),
      injectFirstPaint(
        plain,
        { markup: '<div id="first-paint"></div>', css: '' },
        { homePage: 'pages/main/main', maxWidth: 800 },
      ),
    )
    assert.equal(hasFirstPaint(dir), true)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
