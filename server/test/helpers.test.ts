/**
 * The test helpers' isolation, which lets test files run side by side (scripts/test-server.ts).
 */
import assert from 'node:assert/strict'
import { existsSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { REPO_ROOT } from '../src/config'
import { testConfig } from './helpers'

test("a test file's uploads go to a folder of its own, never the repository's data/uploads", () => {
  const { uploadDir } = testConfig()
  assert.equal(
    uploadDir.startsWith(REPO_ROOT + path.sep),
    false,
    `${uploadDir} is inside the repository`,
  )
  assert.ok(existsSync(uploadDir))
  // One folder for the whole file (removed after it), whatever its apps.
  assert.equal(testConfig().uploadDir, uploadDir)
  // An explicit folder is kept.
  assert.equal(testConfig({ uploadDir: '/tmp/elsewhere' }).uploadDir, '/tmp/elsewhere')
})
