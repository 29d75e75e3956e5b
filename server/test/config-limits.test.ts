// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { ConfigError, DEVELOPMENT_SECRET_KEY, loadConfig } from '../src/config'

/** SECRET_KEY and TRUST_PROXY (issue 6, sections 1 and 3). */

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    if (error instanceof ConfigError) return error
    throw error
  }
  throw new Error('expected a ConfigError')
}

const KEY = Buffer.alloc(32, 3).toString('base64')
const ID_CARD_KEY = Buffer.alloc(32, 4).toString('base64')

test('SECRET_KEY: the development key in demo mode, required and real outside it', () => {
  assert.deepEqual(loadConfig({}).secretKey, DEVELOPMENT_SECRET_KEY)
  assert.deepEqual(loadConfig({ SECRET_KEY: KEY }).secretKey, Buffer.from(KEY, 'base64'))

  const missing = configErrorOf({ DEMO_MODE: 'off' })
  assert.match(missing.message, /SECRET_KEY：非演示模式必须配置/)
  const production = configErrorOf({ NODE_ENV: 'production', ID_CARD_KEY })
  assert.match(production.message, /SECRET_KEY/)
  // The public development key is refused outside demo mode even when given explicitly.
  const dev = configErrorOf({
    DEMO_MODE: 'off',
    SECRET_KEY: DEVELOPMENT_SECRET_KEY.toString('base64'),
  })
  assert.match(dev.message, /不能使用开发密钥/)
  assert.deepEqual(
    loadConfig({ NODE_ENV: 'production', ID_CARD_KEY, SECRET_KEY: KEY }).secretKey,
    Buffer.from(KEY, 'base64'),
  )

  const short = configErrorOf({ SECRET_KEY: Buffer.alloc(16).toString('base64') })
  assert.match(short.message, /SECRET_KEY：必须是 32 字节密钥/)
  assert.ok(!short.message.includes(Buffer.alloc(16).toString('base64')), 'the value is not echoed')
})

test('TRUST_PROXY: only a hop count or proxy addresses/CIDRs; true and garbage stop the server', () => {
  assert.equal(loadConfig({ TRUST_PROXY: '2' }).trustProxy, 2)
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8,2001:db8::/32, 127.0.0.1' }).trustProxy, [
    '10.0.0.0/8',
    '2001:db8::/32',
    '127.0.0.1',
  ])
  for (const bad of [
    'true',
    'yes',
    'nginx',
    '10.0.0.0/33',
    '2001:db8::/129',
    '10.0.0.1/8/8',
    '999',
  ]) {
    const error = configErrorOf({ TRUST_PROXY: bad })
    assert.match(error.message, /^配置有误，服务未启动/)
    assert.match(error.message, /TRUST_PROXY：只能是代理层数/, bad)
  }
})

test('TRUST_PROXY: ranges wide enough to trust clients as proxies stop the server (issue 6 retest)', () => {
  for (const wide of [
    '0.0.0.0/0',
    '::/0',
    '0.0.0.0/1,128.0.0.0/1',
    '10.0.0.0/7',
    '2000::/3',
    '2001:db8::/31',
    // IPv6 ranges over the IPv4-mapped block trust IPv4 clients: all of them, or a /4.
    '::/80',
    '::ffff:0.0.0.0/96',
    '::ffff:0:0/100',
    '0:0:0:0:0:ffff:0.0.0.0/103',
  ]) {
    const error = configErrorOf({ TRUST_PROXY: wide })
    assert.match(error.message, /^配置有误，服务未启动/, wide)
    assert.match(error.message, /TRUST_PROXY：代理地址范围过大/, wide)
    assert.match(error.message, /IPv4 前缀至少 \/8，IPv6 至少 \/32/, wide)
    assert.doesNotMatch(error.message, /数据库|invalid range/, wide)
  }
  // What deployments use stays accepted.
  for (const fine of [
    '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16',
    '100.64.0.0/10',
    '2001:db8::/32',
    'fd00::/48',
    '::ffff:10.0.0.0/104',
    '::1',
    '127.0.0.1',
    'fe80::1%eth0',
  ]) {
    assert.ok(Array.isArray(loadConfig({ TRUST_PROXY: fine }).trustProxy), fine)
  }
})
