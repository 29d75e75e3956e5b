import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { LocalObjectStore } from '../../src/storage'
import { objectStoreContract } from './contract'

const root = mkdtempSync(path.join(os.tmpdir(), 'store-local-'))
after(() => rmSync(root, { recursive: true, force: true }))

objectStoreContract('local', () => new LocalObjectStore(path.join(root, 'objects')))

test('local: no temporary file is left behind, after success or failure', async () => {
  const store = new LocalObjectStore(path.join(root, 'temp-check'))
  await store.put('a/b', Buffer.from('x'), { contentType: 'text/plain' })
  assert.deepEqual(readdirSync(path.join(root, 'temp-check', '.tmp')), [])
  // Objects are plain files under their key, so an operator can back them up with any tool.
  assert.deepEqual(readdirSync(path.join(root, 'temp-check', 'a')).sort(), ['.b.meta', 'b'])
})
