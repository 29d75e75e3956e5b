// test-server: no database
import assert from 'node:assert/strict'
import path from 'node:path'
import { test } from 'node:test'
import { ESLint } from 'eslint'

/**
 * The server's import rules (eslint.config.mjs, server/src/domain/README.md) fail the lint on a
 * violation: each case lints a small file placed, in name only, where the forbidden import would
 * live, and expects the rule's message; the allowed form of the same import passes.
 */

const ROOT = path.resolve(__dirname, '../../..')
const eslint = new ESLint({ cwd: ROOT })

async function restrictedPaths(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, file) })
  return result!.messages
    .filter((message) => message.ruleId === 'import-x/no-restricted-paths')
    .map((message) => message.message)
}

test('http/ imports no domain module', async () => {
  const errors = await restrictedPaths(
    'server/src/http/lint-fixture.ts',
    "export { findSessionByAccessToken } from '../domain/identity'\n",
  )
  assert.equal(errors.length, 1)
  assert.match(errors[0]!, /infrastructure .* imports no domain module or route/)
})

test('infrastructure imports no route, the domain imports no route', async () => {
  const fromStorage = await restrictedPaths(
    'server/src/storage/lint-fixture.ts',
    "export { recordsCaller } from '../routes/records-caller'\n",
  )
  assert.equal(fromStorage.length, 1)
  const fromDomain = await restrictedPaths(
    'server/src/domain/patient/lint-fixture.ts',
    "export { recordsCaller } from '../../routes/records-caller'\n",
  )
  assert.equal(fromDomain.length, 1)
  assert.match(fromDomain[0]!, /the domain never imports routes/)
})

test("a domain folder reaches another only through that folder's index.ts", async () => {
  const deep = await restrictedPaths(
    'server/src/domain/patient/lint-fixture.ts',
    "export { shareSessionReader } from '../sharing/shares'\n",
  )
  assert.equal(deep.length, 1)
  assert.match(deep[0]!, /only through that folder's index\.ts/)
  const topLevel = await restrictedPaths(
    'server/src/domain/lint-fixture.ts',
    "export { reachExam } from './records/access'\n",
  )
  assert.equal(topLevel.length, 1)
  // The same names through the folders' index.ts, and a file of the folder itself, are allowed.
  assert.deepEqual(
    await restrictedPaths(
      'server/src/domain/patient/lint-fixture.ts',
      "export { shareSessionReader } from '../sharing'\nexport { summariseExams } from './lists'\n",
    ),
    [],
  )
  assert.deepEqual(
    await restrictedPaths(
      'server/src/domain/lint-fixture.ts',
      "export { reachExam } from './records'\n",
    ),
    [],
  )
})

test('routes may import the domain and infrastructure', async () => {
  assert.deepEqual(
    await restrictedPaths(
      'server/src/routes/main/lint-fixture.ts',
      "export { reachExam } from '../../domain/records/access'\nexport { ApiError } from '../../http/errors'\n",
    ),
    [],
  )
})
