// test-server: no database
import assert from 'node:assert/strict'
import { generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { ConfigError, loadConfig, WECHATPAY_DEFAULT_BASE_URL } from '../../src/config'
import { createPaymentProvider, type PaymentLog } from '../../src/providers/payments'

/*
 * WECHATPAY_*: all set → WeChat Pay, none → 演示支付 in demo mode and 支付未配置 otherwise, some →
 * the server does not start and says which are missing.
 */

const dir = mkdtempSync(path.join(os.tmpdir(), 'wechatpay-config-'))
after(() => rmSync(dir, { recursive: true, force: true }))
const merchant = generateKeyPairSync('rsa', { modulusLength: 2048 })
const platform = generateKeyPairSync('rsa', { modulusLength: 2048 })
const privateKeyFile = path.join(dir, 'apiclient_key.pem')
const publicKeyFile = path.join(dir, 'pub_key.pem')
writeFileSync(privateKeyFile, merchant.privateKey.export({ type: 'pkcs8', format: 'pem' }))
writeFileSync(publicKeyFile, platform.publicKey.export({ type: 'spki', format: 'pem' }))

const log = { info() {}, warn() {}, error() {} } as unknown as PaymentLog
const PRODUCTION_KEYS = {
  DEMO_MODE: 'off',
  SECRET_KEY: Buffer.alloc(32, 5).toString('base64'),
  ID_CARD_KEY: Buffer.alloc(32, 6).toString('base64'),
}
const WECHATPAY = {
  WECHATPAY_MCHID: '1900000109',
  WECHATPAY_APPID: 'wxd678efa567aa6787',
  WECHATPAY_MERCHANT_SERIAL: '5157F09EFDC096DE15EBE81A47057A7232F1B8E1',
  WECHATPAY_PRIVATE_KEY_FILE: privateKeyFile,
  WECHATPAY_APIV3_KEY: '0123456789abcdefghijklmnopqrstuv',
  WECHATPAY_PUBLIC_KEY_FILE: publicKeyFile,
  WECHATPAY_PUBLIC_KEY_ID: 'PUB_KEY_ID_0116000000002025000000000000000001',
}

function configError(env: Record<string, string>): string {
  try {
    loadConfig(env)
  } catch (error) {
    assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`)
    return error.message
  }
  return assert.fail('expected a ConfigError')
}

test('none set: 演示支付 in demo mode, 支付未配置 otherwise', () => {
  const demo = loadConfig({})
  assert.equal(demo.wechatpay, null)
  assert.equal(createPaymentProvider(demo, log).name, 'demo')
  const plain = loadConfig(PRODUCTION_KEYS)
  assert.equal(plain.wechatpay, null)
  const provider = createPaymentProvider(plain, log)
  assert.equal(provider.name, 'unconfigured')
  assert.equal(provider.configured, false)
  // Empty values mean unset, as everywhere in the configuration.
  assert.equal(loadConfig({ ...PRODUCTION_KEYS, WECHATPAY_MCHID: '' }).wechatpay, null)
})

test('all set: WeChat Pay with the keys read, the default address, in demo mode too', () => {
  for (const env of [{ ...PRODUCTION_KEYS, ...WECHATPAY }, WECHATPAY]) {
    const config = loadConfig(env)
    const wechatpay = config.wechatpay!
    assert.equal(wechatpay.mchid, '1900000109')
    assert.equal(wechatpay.appid, 'wxd678efa567aa6787')
    assert.equal(wechatpay.merchantSerial, WECHATPAY.WECHATPAY_MERCHANT_SERIAL)
    assert.equal(wechatpay.platformPublicKeyId, WECHATPAY.WECHATPAY_PUBLIC_KEY_ID)
    assert.equal(wechatpay.apiv3Key.length, 32)
    assert.equal(wechatpay.privateKey.type, 'private')
    assert.equal(wechatpay.platformPublicKey.type, 'public')
    assert.equal(wechatpay.baseUrl, WECHATPAY_DEFAULT_BASE_URL)
    const provider = createPaymentProvider(config, log)
    assert.equal(provider.name, 'wechatpay')
    assert.equal(provider.configured, true)
  }
  const local = loadConfig({ ...WECHATPAY, WECHATPAY_BASE_URL: 'http://127.0.0.1:9999/' })
  assert.equal(local.wechatpay?.baseUrl, 'http://127.0.0.1:9999')
})

test('商家转账 pays from the 运营账户 unless WECHATPAY_TRANSFER_ACCOUNT_TYPE says BASIC', () => {
  assert.equal(loadConfig(WECHATPAY).wechatpay?.transferAccountType, 'OPERATION')
  const basic = loadConfig({ ...WECHATPAY, WECHATPAY_TRANSFER_ACCOUNT_TYPE: 'BASIC' })
  assert.equal(basic.wechatpay?.transferAccountType, 'BASIC')
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_TRANSFER_ACCOUNT_TYPE: 'FEES' }),
    /WECHATPAY_TRANSFER_ACCOUNT_TYPE：必须是 OPERATION（运营账户）或 BASIC（基本账户）/,
  )
  // Alone it is a partial merchant, like any other WECHATPAY_*.
  assert.match(configError({ WECHATPAY_TRANSFER_ACCOUNT_TYPE: 'BASIC' }), /缺少 WECHATPAY_MCHID/)
})

test('some set: the server does not start, and the message names what is missing', () => {
  const { WECHATPAY_APIV3_KEY, WECHATPAY_PUBLIC_KEY_ID, ...partial } = WECHATPAY
  void WECHATPAY_APIV3_KEY
  void WECHATPAY_PUBLIC_KEY_ID
  const message = configError({ ...PRODUCTION_KEYS, ...partial })
  assert.match(message, /全部设置或全部不设置/)
  assert.match(message, /缺少 WECHATPAY_APIV3_KEY、WECHATPAY_PUBLIC_KEY_ID/)
  assert.doesNotMatch(message, /apiclient_key|PUB_KEY_ID_0116/, 'values are not echoed')
  // Only the address: still partial, all seven named.
  const onlyUrl = configError({ WECHATPAY_BASE_URL: 'http://127.0.0.1:9999' })
  for (const name of Object.keys(WECHATPAY)) assert.ok(onlyUrl.includes(name), name)
})

test('bad values: key length, id formats, unreadable or wrong key files', () => {
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_APIV3_KEY: 'too-short' }),
    /WECHATPAY_APIV3_KEY：必须是商户平台设置的 32 字节 APIv3 密钥/,
  )
  assert.match(configError({ ...WECHATPAY, WECHATPAY_MCHID: 'abc' }), /WECHATPAY_MCHID/)
  assert.match(configError({ ...WECHATPAY, WECHATPAY_APPID: 'wx123' }), /WECHATPAY_APPID/)
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_PUBLIC_KEY_ID: '5157F09EFDC096DE' }),
    /WECHATPAY_PUBLIC_KEY_ID：必须是微信支付公钥 ID/,
  )
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_BASE_URL: 'ftp://example.cn' }),
    /WECHATPAY_BASE_URL/,
  )
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_PRIVATE_KEY_FILE: path.join(dir, 'missing.pem') }),
    /WECHATPAY_PRIVATE_KEY_FILE：无法读取或不是有效的 PEM 密钥文件/,
  )
  const notPem = path.join(dir, 'not.pem')
  writeFileSync(notPem, 'hello')
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_PUBLIC_KEY_FILE: notPem }),
    /WECHATPAY_PUBLIC_KEY_FILE：无法读取或不是有效的 PEM 密钥文件/,
  )
  const ec = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
  const ecFile = path.join(dir, 'ec.pem')
  writeFileSync(ecFile, ec.privateKey.export({ type: 'pkcs8', format: 'pem' }))
  assert.match(
    configError({ ...WECHATPAY, WECHATPAY_PRIVATE_KEY_FILE: ecFile }),
    /WECHATPAY_PRIVATE_KEY_FILE：必须是 RSA 私钥/,
  )
})
