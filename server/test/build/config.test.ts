// test-server: no database
/**
 * The Taro build configuration (config/): what the app is told at build time, the mini-program's API
 * origin rule, the spec's 800 px max width, and the first-screen helpers. The config function itself
 * runs in a child process, the way Taro loads it, with the environment of each case.
 */
import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { describe, test } from 'node:test'
import { BuildConfigError, CHECKS_ORIGIN, appEnv, weappOrigin } from '../../../config/app-env'
import { H5_MAX_WIDTH, apiOrigins, pageFrameCss, themeColorOf } from '../../../config/h5-plugins'

const ROOT = path.resolve(__dirname, '..', '..', '..')
const WEAPP_RELEASE = { taroEnv: 'weapp', production: true }

describe('the mini-program API origin', () => {
  test('a release build without TARO_APP_API_ORIGIN stops with a Chinese and English reason', () => {
    assert.throws(
      () => weappOrigin({}, WEAPP_RELEASE),
      (error: unknown) =>
        error instanceof BuildConfigError &&
        /缺少 TARO_APP_API_ORIGIN/.test(error.message) &&
        /needs TARO_APP_API_ORIGIN/.test(error.message),
    )
    assert.throws(() => weappOrigin({ TARO_APP_API_ORIGIN: '  ' }, WEAPP_RELEASE), BuildConfigError)
  })

  test('a release build refuses a plain-HTTP origin (WeChat allows HTTPS request domains only)', () => {
    assert.throws(
      () => weappOrigin({ TARO_APP_API_ORIGIN: 'http://127.0.0.1:8080' }, WEAPP_RELEASE),
      /必须是 HTTPS/,
    )
    assert.equal(
      weappOrigin({ TARO_APP_API_ORIGIN: 'https://api.example.com' }, WEAPP_RELEASE),
      'https://api.example.com',
    )
  })

  test("npm test's measured build gets a placeholder that never resolves", () => {
    assert.equal(weappOrigin({ BUILD_FOR_CHECKS: '1' }, WEAPP_RELEASE), CHECKS_ORIGIN)
    assert.match(CHECKS_ORIGIN, /^https:\/\/[^/]+\.invalid$/)
  })

  test('development builds and the H5 app need no origin (DevTools, the page’s own origin)', () => {
    assert.equal(weappOrigin({}, { taroEnv: 'weapp', production: false }), undefined)
    assert.equal(weappOrigin({}, { taroEnv: 'h5', production: true }), undefined)
  })
})

test('every TARO_APP_* variable of the shell reaches the app as process.env, nothing else does', () => {
  const env = appEnv(
    {
      TARO_APP_API_ORIGIN: 'https://api.example.com ',
      TARO_APP_HOST_CONSULT: 'https://consult.example.com/consult',
      TARO_APP_EMPTY: '',
      DATABASE_URL: 'postgres://secret',
      HOME: '/root',
    },
    { taroEnv: 'h5', production: true },
  )
  assert.deepEqual(env, {
    TARO_APP_API_ORIGIN: '"https://api.example.com"',
    TARO_APP_HOST_CONSULT: '"https://consult.example.com/consult"',
  })
})

test('connect-src origins come from the API variables, paths and relative values dropped', () => {
  assert.deepEqual(
    apiOrigins({
      TARO_APP_API_ORIGIN: 'https://api.example.com/',
      TARO_APP_HOST_IMAGE: 'https://img.example.com/image',
      TARO_APP_HOST_MAIN: '/main',
      TARO_APP_OTHER: 'https://other.example.com',
    }),
    ['https://api.example.com', 'https://img.example.com'],
  )
})

test('the H5 page is capped at the spec’s 800 px and centred', () => {
  assert.equal(H5_MAX_WIDTH, 800)
  const css = pageFrameCss()
  // Before Taro mounts, #app; after, the tab-bar container around the bars and pages.
  assert.match(css, /#app,body>\.taro-tabbar__container\{max-width:800px;margin:0 auto\}/)
  assert.match(css, /@media \(min-width:801px\)/)
})

/** Runs config/index.ts as Taro does (a merge function, TARO_ENV and NODE_ENV) and reports on it. */
function loadConfig(env: Record<string, string>): { status: number | null; out: string } {
  const script = `
    const { default: fn, H5_MAX_ROOT_SIZE } = require('./config/index.ts')
    const merge = require('lodash/merge')
    Promise.resolve(fn(merge, { command: 'build', mode: process.env.NODE_ENV })).then((config) => {
      const plugins = []
      config.h5.webpackChain({ performance: { hints() {} }, optimization: { minimizer: (name) => ({ use: (plugin, [options]) => plugins.push('minimizer:' + name + ':' + (options.minify === plugin.swcMinify ? 'swc' : 'other')) }) }, plugin: (name) => ({ use: () => plugins.push(name) }) }, {})
      console.log(JSON.stringify({ maxRootSize: config.h5.postcss.pxtransform.config.maxRootSize, expected: H5_MAX_ROOT_SIZE, env: config.env, themeColor: config.h5.htmlPluginOption.themeColor, plugins }))
    }, (error) => { console.error(error.message); process.exit(2) })`
  const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, ...env },
  })
  return { status: run.status, out: `${run.stdout}${run.stderr}` }
}

describe('config/index.ts as Taro runs it', () => {
  test('a weapp release without an origin fails in the config itself', () => {
    const run = loadConfig({ TARO_ENV: 'weapp', NODE_ENV: 'production' })
    assert.equal(run.status, 2, run.out)
    assert.match(run.out, /小程序正式构建缺少 TARO_APP_API_ORIGIN/)
  })

  test('the H5 build: rem stops growing at 800 px, the theme colour reaches index.html, the frame, components-per-file, shared-page-chunks, first-screen, first-paint, build-times and messages-only-stats plugins are on, SWC minifies', () => {
    const run = loadConfig({
      TARO_ENV: 'h5',
      NODE_ENV: 'production',
      TARO_APP_API_ORIGIN: 'https://api.example.com',
    })
    assert.equal(run.status, 0, run.out)
    const report = JSON.parse(run.out.trim().split('\n').pop()!) as {
      maxRootSize: number
      expected: number
      env: Record<string, string>
      themeColor: string
      plugins: string[]
    }
    // 40 px at 750 wide (the design width): 800 px wide is 40 × 800 / 750.
    assert.equal(report.maxRootSize, (40 * 800) / 750)
    assert.equal(report.maxRootSize, report.expected)
    assert.equal(report.env.TARO_APP_API_ORIGIN, '"https://api.example.com"')
    // The navigation bar's colour in app.config, which is the theme's brand colour (src/theme.ts).
    assert.equal(report.themeColor, themeColorOf(ROOT, 'src'))
    assert.match(report.themeColor, /^#[0-9a-f]{6}$/i)
    assert.deepEqual(report.plugins.sort(), [
      'build-times',
      'components-per-file',
      'first-paint',
      'first-screen',
      'messages-only-stats',
      'minimizer:terserPlugin:swc',
      'page-frame',
      'precompress',
      'shared-page-chunks',
    ])
  })
})
