// test-server: no database
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { ConfigError, loadConfig, parseDatabaseUrl, REPO_ROOT } from '../src/config'

test('defaults: 127.0.0.1:8080, SQLite under data/, demo mode on, web root dist/h5', () => {
  const config = loadConfig({})
  assert.equal(config.host, '127.0.0.1')
  assert.equal(config.port, 8080)
  assert.deepEqual(config.database, {
    kind: 'sqlite',
    file: path.join(REPO_ROOT, 'data', 'app.sqlite'),
  })
  assert.equal(config.demoMode, true)
  assert.equal(config.webRoot, path.join(REPO_ROOT, 'dist', 'h5'))
  assert.equal(config.logLevel, 'info')
  assert.match(config.version, /^\d+\.\d+\.\d+/)
  // No merchant: 演示支付 in demo mode (WECHATPAY_*: test/providers/payments-config.test.ts).
  assert.equal(config.wechatpay, null)
})

test('environment values are read and empty ones mean unset', () => {
  const config = loadConfig({
    HOST: '0.0.0.0',
    PORT: '3000',
    LOG_LEVEL: 'warn',
    WEB_ROOT: '/srv/h5',
    DEMO_MODE: 'off',
    DATABASE_URL: '',
    SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
    ID_CARD_KEY: Buffer.alloc(32, 6).toString('base64'),
  })
  assert.equal(config.host, '0.0.0.0')
  assert.equal(config.port, 3000)
  assert.equal(config.logLevel, 'warn')
  assert.equal(config.webRoot, '/srv/h5')
  assert.equal(config.demoMode, false)
  assert.equal(config.database.kind, 'sqlite')
})

test('demo mode is off in production and cannot be forced on there', () => {
  // Production also needs ID_CARD_KEY (tested in its own test below).
  const ID_CARD_KEY = Buffer.alloc(32, 7).toString('base64')
  const SECRET_KEY = Buffer.alloc(32, 5).toString('base64')
  assert.equal(loadConfig({ NODE_ENV: 'production', ID_CARD_KEY, SECRET_KEY }).demoMode, false)
  assert.throws(
    () => loadConfig({ NODE_ENV: 'production', DEMO_MODE: 'true', ID_CARD_KEY, SECRET_KEY }),
    /DEMO_MODE：生产环境（NODE_ENV=production）不能开启演示模式/,
  )
  assert.equal(loadConfig({ NODE_ENV: 'development' }).demoMode, true)
})

test('DATABASE_URL picks the database', () => {
  assert.deepEqual(parseDatabaseUrl(':memory:'), { kind: 'sqlite', file: ':memory:' })
  assert.deepEqual(parseDatabaseUrl('sqlite:/tmp/a.sqlite'), {
    kind: 'sqlite',
    file: '/tmp/a.sqlite',
  })
  assert.deepEqual(parseDatabaseUrl('file:data/x.sqlite'), {
    kind: 'sqlite',
    file: path.join(REPO_ROOT, 'data', 'x.sqlite'),
  })
  assert.deepEqual(parseDatabaseUrl('postgres://u:p@db:5432/app'), {
    kind: 'postgres',
    url: 'postgres://u:p@db:5432/app',
  })
  assert.deepEqual(parseDatabaseUrl('postgresql://db/app', 'tenant_a'), {
    kind: 'postgres',
    url: 'postgresql://db/app',
    schema: 'tenant_a',
  })
})

function configErrorOf(env: Record<string, string>): ConfigError {
  try {
    loadConfig(env)
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`)
    return error
  }
  assert.fail('expected a ConfigError')
}

test('bad values are refused with a message naming each variable', () => {
  const error = configErrorOf({ PORT: 'abc', LOG_LEVEL: 'loud', DEMO_MODE: 'maybe' })
  assert.match(error.message, /^配置有误/)
  assert.match(error.message, /PORT：必须是 1–65535 之间的整数/)
  assert.match(error.message, /LOG_LEVEL：只能是/)
  assert.match(error.message, /DEMO_MODE：只能是/)
  assert.match(configErrorOf({ PORT: '70000' }).message, /PORT/)
  assert.match(configErrorOf({ PORT: '80.5' }).message, /PORT/)
})

test('database settings are checked and never echoed', () => {
  const mysql = configErrorOf({ DATABASE_URL: 'mysql://root:s3cret@db/app' })
  assert.match(mysql.message, /DATABASE_URL/)
  assert.doesNotMatch(mysql.message, /s3cret/)
  assert.match(
    configErrorOf({ DATABASE_SCHEMA: 'x' }).message,
    /DATABASE_SCHEMA：只在使用 PostgreSQL/,
  )
  const schema = configErrorOf({ DATABASE_URL: 'postgres://db/app', DATABASE_SCHEMA: 'Bad-Name' })
  assert.match(schema.message, /DATABASE_SCHEMA/)
})

test('ID_CARD_KEY: required in production, 32 bytes of base64, a development key in demo mode', () => {
  assert.match(configErrorOf({ NODE_ENV: 'production' }).message, /ID_CARD_KEY：生产环境必须配置/)
  const short = configErrorOf({ ID_CARD_KEY: Buffer.alloc(16).toString('base64') })
  assert.match(short.message, /ID_CARD_KEY：必须是 32 字节密钥/)
  assert.ok(!short.message.includes(Buffer.alloc(16).toString('base64')), 'the value is not echoed')
  const key = Buffer.alloc(32, 9)
  const configured = loadConfig({ ID_CARD_KEY: key.toString('base64') })
  assert.deepEqual(configured.idCardKey, key)
  assert.equal(configured.idCardKeyIsDevelopment, false)
  const development = loadConfig({})
  assert.equal(development.idCardKey.length, 32)
  assert.equal(development.idCardKeyIsDevelopment, true)
})

test('UPLOAD_DIR defaults to data/uploads under the repository root', () => {
  assert.equal(loadConfig({}).uploadDir, path.join(REPO_ROOT, 'data', 'uploads'))
  assert.equal(loadConfig({ UPLOAD_DIR: '/srv/uploads' }).uploadDir, '/srv/uploads')
})

test('TRUST_PROXY: off by default, a hop count, or proxy addresses', () => {
  assert.equal(loadConfig({}).trustProxy, false)
  assert.equal(loadConfig({ TRUST_PROXY: '1' }).trustProxy, 1)
  assert.equal(loadConfig({ TRUST_PROXY: '0' }).trustProxy, false)
  assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' }).trustProxy, [
    '10.0.0.0/8',
    '127.0.0.1',
  ])
  assert.match(configErrorOf({ TRUST_PROXY: 'nginx' }).message, /TRUST_PROXY：.*nginx/)
})

test('UPLOAD_QUOTA_MB goes past 2 GB now that usage is bigint, up to 1 TB, and says its range', () => {
  assert.equal(loadConfig({ UPLOAD_QUOTA_MB: '10240' }).uploadQuotaBytes, 10240 * 1024 * 1024)
  assert.equal(loadConfig({ UPLOAD_QUOTA_MB: '1048576' }).uploadQuotaBytes, 1024 ** 4)
  for (const bad of ['0', '1048577', '1.5', 'lots']) {
    assert.throws(
      () => loadConfig({ UPLOAD_QUOTA_MB: bad }),
      (error: unknown) =>
        error instanceof ConfigError && /UPLOAD_QUOTA_MB.*1–1048576/.test(error.message),
    )
  }
})
