import assert from 'node:assert/strict'
import { spawnSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { DEVELOPMENT_SECRET_KEY, REPO_ROOT } from '../../../src/config'
import { createDatabase } from '../../../src/db'
import { checkHospitalKey } from '../../../src/domain/hospitals'
import { runHospitalCli } from '../../../src/hospital-cli'
import { setSecretKey } from '../../../src/domain/identity/secrets'
import { closeAfter, isolatedDatabase, TEST_PG_URL } from '../../helpers'

const dir = mkdtempSync(path.join(os.tmpdir(), 'hospital-cli-'))
after(() => rmSync(dir, { recursive: true, force: true }))

/** The environment the command gets: a database of its own, on SQLite or the test PostgreSQL. */
function databaseEnv(): Record<string, string> {
  const database = isolatedDatabase()
  if (database.kind === 'postgres') {
    return { DATABASE_URL: TEST_PG_URL!, DATABASE_SCHEMA: database.schema! }
  }
  return { DATABASE_URL: path.join(dir, `${randomBytes(4).toString('hex')}.sqlite`) }
}

async function run(argv: string[], env: Record<string, string>) {
  const out: string[] = []
  const err: string[] = []
  const code = await runHospitalCli(
    argv,
    { LOG_LEVEL: 'silent', ...env },
    (line) => out.push(line),
    (line) => err.push(line),
    () => new Date('2026-11-23T08:00:00.000Z'),
  )
  return { code, out: out.join('\n'), err: err.join('\n') }
}

function open(env: Record<string, string>) {
  const handle = createDatabase(
    env.DATABASE_SCHEMA
      ? { kind: 'postgres', url: env.DATABASE_URL!, schema: env.DATABASE_SCHEMA }
      : { kind: 'sqlite', file: env.DATABASE_URL! },
  )
  closeAfter(() => handle.destroy())
  return handle.db
}

test('add, key, list and revoke against the configured database', async () => {
  const env = databaseEnv()
  const added = await run(
    ['add', '示例市第一人民医院', '--region', '110101', '--region-name', '北京市东城区', '--ai'],
    env,
  )
  assert.equal(added.code, 0, added.err)
  const id = /id：(\S+)/.exec(added.out)![1]!
  assert.match(added.out, /已添加医院：示例市第一人民医院/)

  const issued = await run(['key', '示例市第一人民医院'], env)
  assert.equal(issued.code, 0, issued.err)
  const key = /^\s+(yxh_\S+)$/m.exec(issued.out)![1]!
  assert.match(issued.out, /只显示这一次/)
  const db = open(env)
  const check = await checkHospitalKey(db, key, new Date())
  assert.ok(check.ok)
  assert.equal(check.hospital.id, id)

  const listed = await run(['list'], env)
  assert.match(listed.out, new RegExp(`${id}  示例市第一人民医院（北京市东城区，AI 报告）`))
  assert.match(
    listed.out,
    new RegExp(`密钥 ${key.slice(0, 12)}…  创建 2026-11-23T08:00:00.000Z  有效`),
  )
  assert.ok(!listed.out.includes(key), 'the key itself is never listed')

  const revoked = await run(['revoke', key.slice(0, 12)], env)
  assert.equal(revoked.code, 0, revoked.err)
  assert.match(revoked.out, /已停用密钥/)
  assert.deepEqual(await checkHospitalKey(db, key, new Date()), { ok: false, reason: 'revoked' })
  assert.match((await run(['list'], env)).out, /已停用 2026-11-23T08:00:00.000Z/)
})

test('mistakes are explained in Chinese with a non-zero exit', async () => {
  const env = databaseEnv()
  const cases: [string[], number, RegExp][] = [
    [[], 2, /用法：npm run hospital/],
    [['frobnicate'], 2, /用法/],
    [['key'], 2, /用法/],
    [['add', '甲医院', '--nope'], 2, /参数有误/],
    [['key', '不存在的医院'], 1, /找不到医院「不存在的医院」/],
    [['revoke', 'yxh_00000000'], 1, /找不到前缀为 yxh_00000000 的密钥/],
    [['add', '乙医院', '--region', '12'], 1, /6 位数字/],
  ]
  for (const [argv, code, message] of cases) {
    const result = await run(argv, env)
    assert.equal(result.code, code, argv.join(' '))
    assert.match(result.err, message, argv.join(' '))
  }
  assert.equal((await run(['add', '甲医院'], env)).code, 0)
  assert.match((await run(['add', '甲医院'], env)).err, /已有同名医院/)
  // The server's configuration rules apply: outside demo mode it needs the real keys.
  const refused = await run(['list'], { ...env, DEMO_MODE: '0' })
  assert.equal(refused.code, 1)
  assert.match(refused.err, /配置有误，未执行：[\s\S]*SECRET_KEY/)
})

test('keys are hashed with the configured SECRET_KEY, as the server will check them', async () => {
  const env = {
    ...databaseEnv(),
    DEMO_MODE: '0',
    SECRET_KEY: Buffer.alloc(32, 9).toString('base64'),
    ID_CARD_KEY: Buffer.alloc(32, 8).toString('base64'),
  }
  try {
    await run(['add', '甲医院'], env)
    const key = /^\s+(yxh_\S+)$/m.exec((await run(['key', '甲医院'], env)).out)![1]!
    const db = open(env)
    assert.equal((await checkHospitalKey(db, key, new Date())).ok, true)
    setSecretKey(DEVELOPMENT_SECRET_KEY)
    assert.equal((await checkHospitalKey(db, key, new Date())).ok, false)
  } finally {
    setSecretKey(DEVELOPMENT_SECRET_KEY)
  }
})

test('npm run hospital runs the same command (scripts/hospital.ts)', () => {
  const env = databaseEnv()
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'hospital.ts'), 'add', '丙医院'],
    { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8' },
  )
  assert.equal(result.status, 0, result.stderr)
  assert.match(result.stdout, /已添加医院：丙医院/)
  const missing = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join(REPO_ROOT, 'scripts', 'hospital.ts'), 'key', '丁医院'],
    { cwd: REPO_ROOT, env: { ...process.env, LOG_LEVEL: 'silent', ...env }, encoding: 'utf8' },
  )
  assert.equal(missing.status, 1)
  assert.match(missing.stderr, /找不到医院「丁医院」/)
})
