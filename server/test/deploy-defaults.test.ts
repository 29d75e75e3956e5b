// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, DEVELOPMENT_ID_CARD_KEY, isLoopbackHost, loadConfig } from '../src/config'

/** Issue 6 section 3: what someone who deploys the server gets without reading the README. */

const SECRET_KEY = Buffer.alloc(32, 3).toString('base64')
const ID_CARD_KEY = Buffer.alloc(32, 4).toString('base64')

function refusal(env: Record<string, string>): string {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
  throw new Error('expected the configuration to be refused')
}

test('demo mode is the default on loopback only', () => {
  for (const HOST of ['127.0.0.1', 'localhost', '::1', '127.0.1.1', '[::1]']) {
    assert.equal(loadConfig({ HOST }).demoMode, true, HOST)
  }
  for (const HOST of ['0.0.0.0', '::', '192.168.1.10', 'example.com']) {
    const message = refusal({ HOST })
    assert.match(message, /HOST：演示模式.*默认只在本机地址/, HOST)
    assert.match(message, /DEMO_MODE=1/)
    assert.match(message, /NODE_ENV=production/)
  }
})

test('a non-loopback demo must be asked for on purpose, and never in production', () => {
  assert.equal(loadConfig({ HOST: '0.0.0.0', DEMO_MODE: '1' }).demoMode, true)
  assert.match(
    refusal({ HOST: '0.0.0.0', DEMO_MODE: '1', NODE_ENV: 'production', SECRET_KEY, ID_CARD_KEY }),
    /不能开启演示模式/,
  )
  const prod = loadConfig({ HOST: '0.0.0.0', NODE_ENV: 'production', SECRET_KEY, ID_CARD_KEY })
  assert.equal(prod.demoMode, false)
  const off = loadConfig({ HOST: '0.0.0.0', DEMO_MODE: '0', SECRET_KEY, ID_CARD_KEY })
  assert.equal(off.demoMode, false)
})

test('the development ID_CARD_KEY is refused outside demo mode, given or defaulted', () => {
  assert.match(refusal({ DEMO_MODE: '0', SECRET_KEY }), /ID_CARD_KEY：非演示模式必须配置/)
  assert.match(
    refusal({
      DEMO_MODE: '0',
      SECRET_KEY,
      ID_CARD_KEY: DEVELOPMENT_ID_CARD_KEY.toString('base64'),
    }),
    /ID_CARD_KEY：.*不能使用开发密钥/,
  )
  // Both missing keys are named at once.
  const both = refusal({ NODE_ENV: 'production' })
  assert.match(both, /SECRET_KEY/)
  assert.match(both, /ID_CARD_KEY：生产环境必须配置/)
  assert.equal(loadConfig({}).idCardKeyIsDevelopment, true, 'the demo still runs without keys')
})

test('loopback detection', () => {
  assert.equal(isLoopbackHost('127.0.0.1'), true)
  assert.equal(isLoopbackHost('LOCALHOST'), true)
  assert.equal(isLoopbackHost('::ffff:127.0.0.1'), true)
  assert.equal(isLoopbackHost('128.0.0.1'), false)
  assert.equal(isLoopbackHost('localhost.example.com'), false)
})
