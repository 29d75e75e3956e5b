// test-server: no database
import assert from 'node:assert/strict'
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import type { FileHandle } from 'node:fs/promises'
import os from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import { DEFAULT_CONTENT_TYPE, LocalObjectStore } from '../../src/storage'
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

test('local: the default content type needs no sidecar, and a retyped object drops its old one', async () => {
  const store = new LocalObjectStore(path.join(root, 'sidecar'))
  await store.put('s/raw', Buffer.from('x'), { contentType: DEFAULT_CONTENT_TYPE })
  assert.deepEqual(readdirSync(path.join(root, 'sidecar', 's')), ['raw'])
  await store.put('s/typed', Buffer.from('x'), { contentType: 'image/png' })
  await store.put('s/typed', Buffer.from('y'), { contentType: DEFAULT_CONTENT_TYPE })
  assert.deepEqual(readdirSync(path.join(root, 'sidecar', 's')).sort(), ['raw', 'typed'])
})

/** Records every fsync the store makes, by path relative to its root. */
class CountingStore extends LocalObjectStore {
  flushed: string[] = []
  protected override async flush(target: string, handle?: FileHandle): Promise<void> {
    await super.flush(target, handle)
    // Counted once done: a sidecar that is not there (default content type) is tried, not flushed.
    this.flushed.push(path.relative(this.root, target) || '.')
  }
}

test('local: a put is flushed at once (file and folder); deferred puts once per batch in sync', async () => {
  const store = new CountingStore(path.join(root, 'flush'))
  await store.put('now/a', Buffer.from('x'), { contentType: DEFAULT_CONTENT_TYPE })
  // The temporary file is flushed under its own name, then renamed: the folder entry follows.
  assert.equal(store.flushed.length, 2)
  assert.match(store.flushed[0]!, /^\.tmp\/[0-9a-f]+\.part$/)
  assert.equal(store.flushed[1], 'now')

  store.flushed.splice(0)
  const keys: string[] = []
  for (let index = 0; index < 3; index++) {
    for (const [ext, contentType] of [
      ['dcm', 'application/dicom'],
      ['pixels', DEFAULT_CONTENT_TYPE],
    ] as const) {
      const key = `objects/batch-1/${index}.${ext}`
      await store.put(key, Buffer.from(key), { contentType, durability: 'deferred' })
      keys.push(key)
    }
  }
  assert.equal(store.flushed.length, 0, 'nothing flushed while the batch is written')
  await store.sync(keys)
  const expected = [
    ...keys,
    // The sidecars of the typed objects (.dcm), and each folder up to the root once.
    ...[0, 1, 2].map((index) => `objects/batch-1/.${index}.dcm.meta`),
    'objects/batch-1',
    'objects',
    '.',
  ]
  assert.deepEqual([...store.flushed].sort(), expected.sort())
  // Folders after every file: an entry must not become durable before the bytes it names.
  const firstFolder = store.flushed.indexOf('objects/batch-1')
  assert.ok(
    store.flushed
      .slice(firstFolder)
      .every((entry) => !entry.includes('.dcm') && !/\d\.pixels$/.test(entry)),
  )
})

test('local: folders are made when missing, also if removed behind the store’s back', async () => {
  const dir = path.join(root, 'folders')
  const store = new LocalObjectStore(dir)
  await store.put('x/y/z', Buffer.from('1'), { contentType: 'text/plain' })
  rmSync(path.join(dir, '.tmp'), { recursive: true, force: true })
  rmSync(path.join(dir, 'x'), { recursive: true, force: true })
  await store.put('x/y/z', Buffer.from('2'), { contentType: 'text/plain' })
  assert.equal(readFileSync(path.join(dir, 'x', 'y', 'z'), 'utf8'), '2')
  // A key cannot go under another key (a file is not a folder).
  await assert.rejects(store.put('x/y/z/w', Buffer.from('3'), { contentType: 'text/plain' }))
  assert.deepEqual(readdirSync(path.join(dir, '.tmp')), [])
})
