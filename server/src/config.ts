import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto'
import { existsSync, readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import path from 'node:path'
import { z } from 'zod'

/** The repository root; relative paths in the configuration are resolved against it, not the cwd. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..')

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const
export type LogLevel = (typeof LOG_LEVELS)[number]

export type DatabaseConfig =
  | { kind: 'sqlite'; /** A file path, or `:memory:`. */ file: string }
  | {
      kind: 'postgres'
      url: string
      /** Schema to work in (created if missing); default `public`. */ schema?: string
    }

export interface Config {
  host: string
  port: number
  database: DatabaseConfig
  demoMode: boolean
  /** POST /main/demo/clock moves the app's clock forward (e2e of timers); demo + loopback only. */
  testClock: boolean
  /**
   * Passwords hashed at a test cost (argon2id, 256 KiB, 1 pass) instead of the production one (19 MiB,
   * 2 passes; domain/identity/secrets.ts). Only a test's configuration sets it: no variable reads it, so
   * a deployed server always hashes at the production cost. The suite hashes thousands of passwords
   * (every registration, login and demo account), about 20 ms each at the production cost.
   */
  testPasswordHash: boolean
  /** Directory of the built H5 app. */
  webRoot: string
  logLevel: LogLevel
  production: boolean
  /**
   * SMS gateway (SMS_PROVIDER). Unset: the outbox in demo mode, none otherwise (sending answers 503).
   * `outbox` keeps codes in the sms_outbox table even outside demo mode (staging); real gateways are
   * added as new values with their adapter.
   */
  smsProvider?: 'outbox'
  /**
   * AI analysis (AI_PROVIDER, providers/ai): `demo` the 演示算法, `none` 未配置AI分析服务. Unset: the
   * 演示算法 in demo mode, none otherwise. A vendor's service is added as a new value with its adapter.
   */
  aiProvider?: 'demo' | 'none'
  /** The product version (root package.json), shown by /health and /openapi.json. */
  version: string
  /** AES-256-GCM key (32 bytes) for ID card numbers and holder names (ID_CARD_KEY, base64). */
  idCardKey: Buffer
  /** True when no ID_CARD_KEY was given and the fixed development key is in use (warned at start). */
  idCardKeyIsDevelopment: boolean
  /** Where uploaded files are stored (UPLOAD_DIR); served read-only under /uploads. */
  uploadDir: string
  /**
   * Which proxies' X-Forwarded-For to believe (TRUST_PROXY), so per-address limits see the client and
   * not the load balancer: false (default), a hop count, or a list of proxy addresses/CIDRs. Never
   * "every proxy": that would let any client choose the address the limits count.
   */
  trustProxy: false | number | string[]
  /**
   * The server secret (SECRET_KEY, 32 bytes): keys the HMACs of SMS codes, phone numbers and client
   * addresses in limit counters. The public development key only in demo mode.
   */
  secretKey: Buffer
  /** Where stored files go (STORAGE, S3_*): see parseStorage. */
  storage: StorageConfig
  /**
   * Bytes each person may store in uploads and report photos (UPLOAD_QUOTA_MB, default 2000; at most
   * 1 048 576 = 1 TB, far below where the bigint usage column or a JavaScript number loses a byte).
   */
  uploadQuotaBytes: number
  /**
   * The address people open the H5 app at (PUBLIC_URL, e.g. https://yx.example.cn), for share links
   * and their QR codes. null: links use the address the request came to, which only a demo or a
   * LAN may do; in production a link is then refused (a Host header is the caller's to choose).
   */
  publicUrl: string | null
  /**
   * An ip2region xdb file (GEOIP_XDB) that turns a viewer's public address into a city
   * (providers/geo.ts). null: places say 本机 / 局域网 / 未知位置, never a guess.
   */
  geoipXdb: string | null
  /**
   * A font with Chinese glyphs for the opinions' PDF (PDF_FONT; .ttf, .otf or .ttc). Unset: the first
   * of the usual system fonts found (Noto Sans CJK, WenQuanYi, PingFang). null: none here, and the PDF
   * says so (domain/opinions/pdf.ts).
   */
  pdfFont: string | null
  /**
   * WeChat Pay APIv3 (WECHATPAY_*): all set, or none. null: no merchant configured, so payments are
   * 演示支付 in demo mode and 支付未配置 otherwise (providers/payments).
   */
  wechatpay: WechatPayConfig | null
}

/** A WeChat Pay merchant in 微信支付公钥 mode (the platform's public key and its PUB_KEY_ID_…). */
export interface WechatPayConfig {
  /** 商户号 (WECHATPAY_MCHID). */
  mchid: string
  /** The mini-program's / official account's AppID bound to the merchant (WECHATPAY_APPID). */
  appid: string
  /** The merchant API certificate's serial number (WECHATPAY_MERCHANT_SERIAL). */
  merchantSerial: string
  /** The merchant API private key (WECHATPAY_PRIVATE_KEY_FILE, PEM): signs requests and paySign. */
  privateKey: KeyObject
  /** The APIv3 key (WECHATPAY_APIV3_KEY, 32 bytes): decrypts notifications (AES-256-GCM). */
  apiv3Key: Buffer
  /** 微信支付公钥 (WECHATPAY_PUBLIC_KEY_FILE, PEM): verifies answers and notifications. */
  platformPublicKey: KeyObject
  /** Its id (WECHATPAY_PUBLIC_KEY_ID, PUB_KEY_ID_…): the only Wechatpay-Serial accepted. */
  platformPublicKeyId: string
  /** WECHATPAY_BASE_URL, default https://api.mch.weixin.qq.com (tests: the local stand-in). */
  baseUrl: string
  /**
   * The merchant account 商家转账 pays from, whose 资金账单 is the transfers' daily statement
   * (WECHATPAY_TRANSFER_ACCOUNT_TYPE, default OPERATION: 运营账户). Absent: OPERATION.
   */
  transferAccountType?: WechatPayAccountType
}

/** A merchant's fund accounts as the 资金账单 names them (account_type). */
export type WechatPayAccountType = 'OPERATION' | 'BASIC'

/** Bad configuration: the message is meant for the operator as is, without a stack trace. */
export class ConfigError extends Error {
  override name = 'ConfigError'
}

const booleanFlag = z
  .string()
  .transform((value, ctx) => {
    const normalised = value.trim().toLowerCase()
    if (['1', 'true', 'on', 'yes'].includes(normalised)) return true
    if (['0', 'false', 'off', 'no'].includes(normalised)) return false
    ctx.addIssue({ code: 'custom', message: '只能是 true/false、on/off、1/0 或 yes/no' })
    return z.NEVER
  })
  .optional()

const QUOTA_RANGE = '必须是 1–1048576 之间的整数（MB，最多 1 TB）'

const EnvSchema = z.object({
  NODE_ENV: z.string().optional(),
  HOST: z.string().min(1).default('127.0.0.1'),
  PORT: z.coerce
    .number({ error: '必须是 1–65535 之间的整数' })
    .int('必须是 1–65535 之间的整数')
    .min(1, '必须是 1–65535 之间的整数')
    .max(65535, '必须是 1–65535 之间的整数')
    .default(8080),
  DATABASE_URL: z.string().default('data/app.sqlite'),
  DATABASE_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]{0,62}$/, '只能包含小写字母、数字和下划线，且不能以数字开头')
    .optional(),
  DEMO_MODE: booleanFlag,
  /** The e2e suite's clock it can step (demo mode on a loopback host only; see TEST_CLOCK below). */
  TEST_CLOCK: booleanFlag,
  WEB_ROOT: z.string().default('dist/h5'),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `只能是 ${LOG_LEVELS.join('、')} 之一` }).default('info'),
  SMS_PROVIDER: z.enum(['outbox'], { error: '只能是 outbox（或不设置）' }).optional(),
  AI_PROVIDER: z.enum(['demo', 'none'], { error: '只能是 demo 或 none（或不设置）' }).optional(),
  ID_CARD_KEY: z
    .string()
    .refine(
      (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
      '必须是 32 字节密钥的 base64 编码（可用 openssl rand -base64 32 生成）',
    )
    .optional(),
  UPLOAD_DIR: z.string().default('data/uploads'),
  UPLOAD_QUOTA_MB: z.coerce
    .number({ error: QUOTA_RANGE })
    .int(QUOTA_RANGE)
    .min(1, QUOTA_RANGE)
    .max(1024 * 1024, QUOTA_RANGE)
    .default(2000),
  PUBLIC_URL: z
    .string()
    .transform((value, ctx) => {
      const text = value.trim().replace(/\/+$/, '')
      let parsed: URL | null = null
      try {
        parsed = new URL(text)
      } catch {
        parsed = null
      }
      if (
        !parsed ||
        !['http:', 'https:'].includes(parsed.protocol) ||
        parsed.search ||
        parsed.hash
      ) {
        ctx.addIssue({
          code: 'custom',
          message: '必须是 http(s) 开头的完整地址，不带 ? 或 #（如 https://yx.example.cn）',
        })
        return z.NEVER
      }
      return text
    })
    .optional(),
  GEOIP_XDB: z.string().min(1).optional(),
  PDF_FONT: z.string().min(1).optional(),
  TRUST_PROXY: z
    .string()
    .transform((value, ctx) => parseTrustProxy(value, ctx))
    .optional(),
  SECRET_KEY: z
    .string()
    .refine(
      (value) => /^[A-Za-z0-9+/]+={0,2}$/.test(value) && Buffer.from(value, 'base64').length === 32,
      '必须是 32 字节密钥的 base64 编码（可用 openssl rand -base64 32 生成）',
    )
    .optional(),
})

/**
 * `1` (hops; `0` is off) or `10.0.0.0/8,127.0.0.1` (proxy addresses or CIDRs). `true` is refused:
 * trusting every hop lets any client write the address that per-address limits count.
 */
function parseTrustProxy(value: string, ctx: z.RefinementCtx): false | number | string[] {
  const text = value.trim().toLowerCase()
  if (/^\d{1,2}$/.test(text)) return Number(text) === 0 ? false : Number(text)
  const entries = text.split(',').map((entry) => entry.trim())
  const bad = entries.filter((entry) => !isAddressOrCidr(entry))
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      // The refused entries are echoed: they are addresses or words, never secrets.
      message: `只能是代理层数（如 1），或以逗号分隔的代理 IP/CIDR（如 10.0.0.0/8）；不能是 true（无法识别：${bad.join('、')}）`,
    })
    return z.NEVER
  }
  const wide = entries.filter(isTooWide)
  if (wide.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `代理地址范围过大（${wide.join('、')}）：IPv4 前缀至少 /${MIN_PREFIX_V4}，IPv6 至少 /${MIN_PREFIX_V6}；范围内的任何客户端都能伪造 X-Forwarded-For，从而绕过按地址计数的限制。请只填写代理本身的地址或所在网段`,
    })
    return z.NEVER
  }
  return entries
}

/**
 * The widest ranges a proxy list may name. A proxy sits in one network; a range wider than these
 * (0.0.0.0/1 twice is everyone, and proxy-addr cannot even parse a /0) trusts clients as proxies.
 */
const MIN_PREFIX_V4 = 8
const MIN_PREFIX_V6 = 32
/** ::ffff:0:0/96, where IPv6 writes IPv4 addresses; proxy-addr matches IPv4 clients against it. */
const MAPPED_V4 = 0xffffn << 32n

function isTooWide(entry: string): boolean {
  const [address = '', prefixText] = entry.split('/')
  if (prefixText === undefined) return false
  const prefix = Number(prefixText)
  if (isIP(address) === 4) return prefix < MIN_PREFIX_V4
  if (prefix < MIN_PREFIX_V6) return true
  // An IPv6 range that covers IPv4-mapped addresses trusts those IPv4 clients too: ::/80 all of
  // them, ::ffff:0.0.0.0/100 a /4 of them.
  const value = ipv6Value(address)
  if (prefix <= 96) {
    const shift = BigInt(128 - prefix)
    return value >> shift === MAPPED_V4 >> shift
  }
  return value >> 32n === 0xffffn && prefix - 96 < MIN_PREFIX_V4
}

/** An IPv6 address (already checked by isIP) as a 128-bit number. */
function ipv6Value(address: string): bigint {
  let text = address.split('%')[0]!.toLowerCase()
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head = '', tail] = text.split('::')
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const fill: string[] = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...fill, ...right].reduce(
    (sum, group) => (sum << 16n) | BigInt(parseInt(group, 16)),
    0n,
  )
}

function isAddressOrCidr(entry: string): boolean {
  const [address = '', prefix, extra] = entry.split('/')
  const kind = isIP(address)
  if (kind === 0 || extra !== undefined) return false
  if (prefix === undefined) return true
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (kind === 4 ? 32 : 128)
}

/**
 * In demo mode a missing ID_CARD_KEY falls back to this fixed key so a newcomer can run the demo; it
 * is public (derived from a constant), so data encrypted with it protects nothing, and it is refused
 * outside demo mode.
 */
export const DEVELOPMENT_ID_CARD_KEY = createHash('sha256')
  .update('yingxiang-development-id-card-key')
  .digest()

/**
 * The fallback SECRET_KEY, in demo mode only: public (derived from a constant), so HMACs made with it
 * hide nothing. Outside demo mode the server refuses to start without a real key, and with this one.
 */
export const DEVELOPMENT_SECRET_KEY = createHash('sha256')
  .update('yingxiang-development-secret-key')
  .digest()

type Env = Record<string, string | undefined>

/**
 * Reads and checks the configuration. Throws ConfigError with every problem listed; values are never
 * echoed back because DATABASE_URL may carry a password.
 */
export function loadConfig(env: Env = process.env): Config {
  // An empty variable (`PORT=`) means "not set", as in most shells' .env habits.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, value]) => value !== undefined && value.trim() !== ''),
  )
  const parsed = EnvSchema.safeParse(present)
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  - ${issue.path.join('.')}：${issue.message}`,
    )
    throw new ConfigError(`配置有误，服务未启动：\n${lines.join('\n')}`)
  }
  const values = parsed.data
  const production = values.NODE_ENV === 'production'
  const database = parseDatabaseUrl(values.DATABASE_URL, values.DATABASE_SCHEMA)
  const demoMode = checkDemoMode(values.DEMO_MODE, production, values.HOST)
  const secretKey = values.SECRET_KEY ? Buffer.from(values.SECRET_KEY, 'base64') : undefined
  // Both keys are checked before refusing, so an operator learns every missing one at once.
  const keyProblems: string[] = []
  // Codes and limit keys are HMACs under this key: outside demo mode a public key protects nothing.
  if (!demoMode && (!secretKey || secretKey.equals(DEVELOPMENT_SECRET_KEY))) {
    keyProblems.push(
      '  - SECRET_KEY：非演示模式必须配置，且不能使用开发密钥（32 字节密钥的 base64，可用 openssl rand -base64 32 生成）',
    )
  }
  // ID card numbers are sensitive personal data: only a demo runs on the public development key.
  const idCardKey = values.ID_CARD_KEY ? Buffer.from(values.ID_CARD_KEY, 'base64') : undefined
  if (!demoMode && (!idCardKey || idCardKey.equals(DEVELOPMENT_ID_CARD_KEY))) {
    keyProblems.push(
      `  - ID_CARD_KEY：${production ? '生产环境' : '非演示模式'}必须配置，且不能使用开发密钥（32 字节密钥的 base64，可用 openssl rand -base64 32 生成）`,
    )
  }
  if (keyProblems.length > 0) {
    throw new ConfigError(`配置有误，服务未启动：\n${keyProblems.join('\n')}`)
  }
  // A clock anyone may move would let them expire others' orders: only a demo on this machine.
  const testClock = values.TEST_CLOCK === true
  if (testClock && (!demoMode || !['127.0.0.1', 'localhost', '::1'].includes(values.HOST))) {
    throw new ConfigError(
      '配置有误，服务未启动：\n  - TEST_CLOCK：只能在演示模式且只监听本机（HOST=127.0.0.1）时开启，供端到端测试跳过时间',
    )
  }
  return {
    host: values.HOST,
    port: values.PORT,
    database,
    demoMode,
    testClock,
    testPasswordHash: false,
    webRoot: path.resolve(REPO_ROOT, values.WEB_ROOT),
    logLevel: values.LOG_LEVEL,
    ...(values.SMS_PROVIDER ? { smsProvider: values.SMS_PROVIDER } : {}),
    ...(values.AI_PROVIDER ? { aiProvider: values.AI_PROVIDER } : {}),
    production,
    version: readVersion(),
    idCardKey: idCardKey ?? DEVELOPMENT_ID_CARD_KEY,
    idCardKeyIsDevelopment: !idCardKey,
    uploadDir: path.resolve(REPO_ROOT, values.UPLOAD_DIR),
    trustProxy: values.TRUST_PROXY ?? false,
    secretKey: secretKey ?? DEVELOPMENT_SECRET_KEY,
    storage: parseStorage(present),
    uploadQuotaBytes: values.UPLOAD_QUOTA_MB * 1024 * 1024,
    publicUrl: values.PUBLIC_URL ?? null,
    geoipXdb: values.GEOIP_XDB ? path.resolve(REPO_ROOT, values.GEOIP_XDB) : null,
    pdfFont: values.PDF_FONT ? path.resolve(REPO_ROOT, values.PDF_FONT) : findPdfFont(),
    wechatpay: parseWechatPay(present),
  }
}

/** Where Debian/Ubuntu (fonts-noto-cjk, fonts-wqy-*) and macOS keep a font with Chinese glyphs. */
export const PDF_FONT_CANDIDATES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc',
  '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc',
  '/System/Library/Fonts/PingFang.ttc',
]

function findPdfFont(): string | null {
  return PDF_FONT_CANDIDATES.find((candidate) => existsSync(candidate)) ?? null
}

// --- WeChat Pay (WECHATPAY_*) ------------------------------------------------------------------

export const WECHATPAY_DEFAULT_BASE_URL = 'https://api.mch.weixin.qq.com'

/**
 * The variables a merchant needs; WECHATPAY_BASE_URL and WECHATPAY_TRANSFER_ACCOUNT_TYPE are optional
 * but count as "some set".
 */
const WECHATPAY_REQUIRED = [
  'WECHATPAY_MCHID',
  'WECHATPAY_APPID',
  'WECHATPAY_MERCHANT_SERIAL',
  'WECHATPAY_PRIVATE_KEY_FILE',
  'WECHATPAY_APIV3_KEY',
  'WECHATPAY_PUBLIC_KEY_FILE',
  'WECHATPAY_PUBLIC_KEY_ID',
] as const

const WechatPayEnvSchema = z.object({
  WECHATPAY_MCHID: z.string().regex(/^\d{8,12}$/, '必须是微信支付商户号（8–12 位数字）'),
  WECHATPAY_APPID: z.string().regex(/^wx[0-9a-f]{16}$/, '必须是 wx 开头的 18 位 AppID'),
  WECHATPAY_MERCHANT_SERIAL: z
    .string()
    .regex(/^[0-9A-Fa-f]{8,64}$/, '必须是商户 API 证书的序列号（十六进制）'),
  WECHATPAY_PRIVATE_KEY_FILE: z.string().min(1),
  WECHATPAY_APIV3_KEY: z
    .string()
    .refine(
      (value) => Buffer.byteLength(value, 'utf8') === 32,
      '必须是商户平台设置的 32 字节 APIv3 密钥',
    ),
  WECHATPAY_PUBLIC_KEY_FILE: z.string().min(1),
  WECHATPAY_PUBLIC_KEY_ID: z
    .string()
    .regex(/^PUB_KEY_ID_[0-9A-Za-z]+$/, '必须是微信支付公钥 ID（PUB_KEY_ID_ 开头）'),
  WECHATPAY_BASE_URL: z
    .url({ protocol: /^https?$/, error: '必须是 http(s) 开头的完整地址' })
    .transform((value) => value.replace(/\/+$/, ''))
    .optional(),
  WECHATPAY_TRANSFER_ACCOUNT_TYPE: z
    .enum(['OPERATION', 'BASIC'], { error: '必须是 OPERATION（运营账户）或 BASIC（基本账户）' })
    .optional(),
})

/**
 * All WECHATPAY_* set: a merchant (keys read and checked now, so a wrong file stops the start, not
 * the first payment). None set: null. Some set: refused, naming the missing ones; a half-configured
 * merchant would otherwise fall back to 演示支付 or 支付未配置 without anyone noticing.
 */
function parseWechatPay(present: Env): WechatPayConfig | null {
  const given = Object.keys(present).filter((name) => name.startsWith('WECHATPAY_'))
  if (given.length === 0) return null
  const fail = (lines: string[]): never => {
    throw new ConfigError(`配置有误，服务未启动：\n${lines.join('\n')}`)
  }
  const missing = WECHATPAY_REQUIRED.filter((name) => present[name] === undefined)
  if (missing.length > 0) {
    fail([
      `  - WECHATPAY_*：微信支付的配置必须全部设置或全部不设置，缺少 ${missing.join('、')}（已设置 ${given.sort().join('、')}）`,
    ])
  }
  const parsed = WechatPayEnvSchema.safeParse(present)
  if (!parsed.success) {
    fail(parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}：${issue.message}`))
  }
  const values = parsed.data!
  const problems: string[] = []
  const readKey = <T>(name: string, file: string, make: (pem: string) => T): T | undefined => {
    try {
      return make(readFileSync(path.resolve(REPO_ROOT, file), 'utf8'))
    } catch {
      // The path is the operator's; the file's content is never echoed.
      problems.push(`  - ${name}：无法读取或不是有效的 PEM 密钥文件（${file}）`)
      return undefined
    }
  }
  const privateKey = readKey(
    'WECHATPAY_PRIVATE_KEY_FILE',
    values.WECHATPAY_PRIVATE_KEY_FILE,
    (pem) => createPrivateKey(pem),
  )
  const platformPublicKey = readKey(
    'WECHATPAY_PUBLIC_KEY_FILE',
    values.WECHATPAY_PUBLIC_KEY_FILE,
    (pem) => createPublicKey(pem),
  )
  if (privateKey && privateKey.asymmetricKeyType !== 'rsa') {
    problems.push('  - WECHATPAY_PRIVATE_KEY_FILE：必须是 RSA 私钥（apiclient_key.pem）')
  }
  if (platformPublicKey && platformPublicKey.asymmetricKeyType !== 'rsa') {
    problems.push('  - WECHATPAY_PUBLIC_KEY_FILE：必须是微信支付的 RSA 公钥（pub_key.pem）')
  }
  if (problems.length > 0 || !privateKey || !platformPublicKey) fail(problems)
  return {
    mchid: values.WECHATPAY_MCHID,
    appid: values.WECHATPAY_APPID,
    merchantSerial: values.WECHATPAY_MERCHANT_SERIAL,
    privateKey: privateKey!,
    apiv3Key: Buffer.from(values.WECHATPAY_APIV3_KEY, 'utf8'),
    platformPublicKey: platformPublicKey!,
    platformPublicKeyId: values.WECHATPAY_PUBLIC_KEY_ID,
    baseUrl: values.WECHATPAY_BASE_URL ?? WECHATPAY_DEFAULT_BASE_URL,
    transferAccountType: values.WECHATPAY_TRANSFER_ACCOUNT_TYPE ?? 'OPERATION',
  }
}
// --- end of WeChat Pay ---------------------------------------------------------------------------

// --- Object storage (STORAGE, S3_*) -------------------------------------------------------------

export type StorageConfig =
  | { kind: 'local' }
  | {
      kind: 's3'
      bucket: string
      region: string
      endpoint?: string
      accessKeyId?: string
      secretAccessKey?: string
      forcePathStyle: boolean
    }

const StorageEnvSchema = z.object({
  STORAGE: z
    .enum(['local', 's3'], { error: '只能是 local（本地磁盘）或 s3（S3 兼容存储）' })
    .optional(),
  S3_ENDPOINT: z
    .url({
      protocol: /^https?$/,
      error: '必须是完整的地址，如 https://s3.example.com 或 http://127.0.0.1:9000',
    })
    .optional(),
  S3_BUCKET: z
    .string()
    .regex(
      /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/,
      '存储桶名只能包含小写字母、数字、点和连字符（3–63 个字符）',
    )
    .optional(),
  S3_REGION: z.string().optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_FORCE_PATH_STYLE: booleanFlag,
})

/**
 * STORAGE=local (default: files under UPLOAD_DIR) or s3 (S3_BUCKET required; S3_ENDPOINT for a
 * non-AWS service). S3_* set without STORAGE=s3 is refused: the operator meant S3, files would go to
 * disk. Keys come as a pair or not at all (then the SDK's own chain: AWS_* variables, instance roles).
 */
function parseStorage(present: Env): StorageConfig {
  const parsed = StorageEnvSchema.safeParse(present)
  const problems = parsed.success
    ? []
    : parsed.error.issues.map((issue) => `  - ${issue.path.join('.')}：${issue.message}`)
  const values = parsed.success ? parsed.data : undefined
  const s3Names = Object.keys(StorageEnvSchema.shape).filter(
    (name) => name.startsWith('S3_') && present[name] !== undefined,
  )
  if (values && values.STORAGE !== 's3' && s3Names.length > 0) {
    problems.push(
      `  - STORAGE：设置了 ${s3Names.join('、')}，但 STORAGE 不是 s3；使用 S3 兼容存储请设置 STORAGE=s3`,
    )
  }
  if (values?.STORAGE === 's3') {
    if (!values.S3_BUCKET) problems.push('  - S3_BUCKET：STORAGE=s3 时必须设置存储桶名')
    if (!values.S3_ACCESS_KEY_ID !== !values.S3_SECRET_ACCESS_KEY) {
      problems.push(
        '  - S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY：必须同时设置（或都不设置，使用 AWS 默认凭证）',
      )
    }
  }
  if (problems.length > 0 || !values) {
    throw new ConfigError(`配置有误，服务未启动：\n${problems.join('\n')}`)
  }
  if (values.STORAGE !== 's3') return { kind: 'local' }
  return {
    kind: 's3',
    bucket: values.S3_BUCKET!,
    region: values.S3_REGION ?? 'us-east-1',
    forcePathStyle: values.S3_FORCE_PATH_STYLE ?? false,
    ...(values.S3_ENDPOINT ? { endpoint: values.S3_ENDPOINT } : {}),
    ...(values.S3_ACCESS_KEY_ID ? { accessKeyId: values.S3_ACCESS_KEY_ID } : {}),
    ...(values.S3_SECRET_ACCESS_KEY ? { secretAccessKey: values.S3_SECRET_ACCESS_KEY } : {}),
  }
}
// --- end of object storage ---------------------------------------------------------------------

/** 127.0.0.0/8, ::1 and localhost: only this machine can reach a server listening there. */
export function isLoopbackHost(host: string): boolean {
  const value = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
  if (value === 'localhost' || value === '::1') return true
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(value) || /^::ffff:127\./.test(value)
}

/**
 * Demo mode publishes its accounts' passwords (README) and an endpoint that reads SMS codes back, so
 * it must never reach real users by accident: it is the default only on a loopback HOST, anywhere
 * else it must be asked for (DEMO_MODE=1), and production refuses it outright.
 */
function checkDemoMode(flag: boolean | undefined, production: boolean, host: string): boolean {
  if (production) {
    if (flag === true) {
      throw new ConfigError(
        '配置有误，服务未启动：\n  - DEMO_MODE：生产环境（NODE_ENV=production）不能开启演示模式（演示账号的密码是公开的）',
      )
    }
    return false
  }
  if (flag !== undefined) return flag
  if (!isLoopbackHost(host)) {
    throw new ConfigError(
      [
        '配置有误，服务未启动：',
        `  - HOST：演示模式（公开的演示账号、可读取验证码的接口）默认只在本机地址（127.0.0.1、localhost、::1）上开启，当前监听的地址其他设备也能访问。`,
        '    在局域网演示请明确设置 DEMO_MODE=1；正式部署请设置 NODE_ENV=production（或 DEMO_MODE=0），并配置 ID_CARD_KEY 和 SECRET_KEY。',
      ].join('\n'),
    )
  }
  return true
}

/**
 * `postgres://…` or `postgresql://…` selects PostgreSQL; `:memory:`, `sqlite:<path>`, `file:<path>`
 * or a plain path select SQLite. Relative SQLite paths are resolved against the repository root.
 */
export function parseDatabaseUrl(url: string, schema?: string): DatabaseConfig {
  const value = url.trim()
  if (/^postgres(ql)?:\/\//i.test(value)) {
    try {
      new URL(value)
    } catch {
      throw new ConfigError(
        '配置有误，服务未启动：\n  - DATABASE_URL：不是有效的 PostgreSQL 连接地址',
      )
    }
    return { kind: 'postgres', url: value, ...(schema ? { schema } : {}) }
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) {
    throw new ConfigError(
      '配置有误，服务未启动：\n  - DATABASE_URL：只支持 postgres://…（PostgreSQL）或 SQLite 文件路径 / :memory:',
    )
  }
  if (schema) {
    throw new ConfigError('配置有误，服务未启动：\n  - DATABASE_SCHEMA：只在使用 PostgreSQL 时有效')
  }
  const file = value.replace(/^(sqlite|file):/i, '')
  if (file === ':memory:') return { kind: 'sqlite', file }
  if (file === '') {
    throw new ConfigError('配置有误，服务未启动：\n  - DATABASE_URL：缺少 SQLite 文件路径')
  }
  return { kind: 'sqlite', file: path.resolve(REPO_ROOT, file) }
}

function readVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as {
      version?: string
    }
    return pkg.version ?? '0.0.0'
  } catch {
    return '0.0.0'
  }
}
