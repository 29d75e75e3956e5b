import assert from 'node:assert/strict'
import { readFile } from 'node:fs/promises'
import path from 'node:path'
import { test } from 'node:test'
import { retentionTableMarkdown } from '../../src/domain/retention'

/* The README's retention table is the schedule's, word for word: one is changed, so is the other. */

test('the README table of 数据保留期限 is the schedule in contract/main/retention.ts', async () => {
  const readme = await readFile(path.join(__dirname, '..', '..', '..', 'README.md'), 'utf8')
  const table = /<!-- retention-table:start -->\n([\s\S]*?)\n<!-- retention-table:end -->/.exec(
    readme,
  )
  assert.ok(table, 'README.md has the retention table between its markers')
  assert.equal(table[1], retentionTableMarkdown())
})
