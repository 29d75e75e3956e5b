import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { Readable, Transform } from 'node:stream'
import { test } from 'node:test'
import { writeArchive } from '../../src/domain/data-export'
import { type GetResult, LocalObjectStore, type ObjectStore } from '../../src/storage'
import { buildTestApp } from '../helpers'
import { largePerson } from './large-person'
import { readAll, unzip } from './support'

/*
 * The archive streams: bytes read from the store's objects reach the archive's put while the next
 * ones are read, never all first. A store that counts both sides (and writes slowly, as a remote
 * store would) sees how far reading ever runs ahead of writing: a few buffers, not the archive.
 * bench/export.ts measures the same on 2 GB by the process's memory.
 */

const MiB = 1024 * 1024

class CountingStore implements ObjectStore {
  readonly kind = 'local' as const
  read = 0
  written = 0
  maxLead = 0
  constructor(private readonly inner: ObjectStore) {}

  async get(key: string, options?: Parameters<ObjectStore['get']>[1]): Promise<GetResult> {
    const result = await this.inner.get(key, options)
    const counter = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.read += chunk.length
        this.maxLead = Math.max(this.maxLead, this.read - this.written)
        done(null, chunk)
      },
    })
    return { ...result, body: result.body.pipe(counter) }
  }

  put(
    key: string,
    body: Buffer | Uint8Array | Readable,
    options: Parameters<ObjectStore['put']>[2],
  ) {
    if (!(body instanceof Readable)) return this.inner.put(key, body, options)
    const slow = new Transform({
      transform: (chunk: Buffer, _encoding, done) => {
        this.written += chunk.length
        setTimeout(() => done(null, chunk), 1)
      },
    })
    return this.inner.put(key, body.pipe(slow), options)
  }

  head = (key: string) => this.inner.head(key)
  exists = (key: string) => this.inner.exists(key)
  sync = (keys: readonly string[]) => this.inner.sync(keys)
  delete = (key: string) => this.inner.delete(key)
  deletePrefix = (prefix: string) => this.inner.deletePrefix(prefix)
}

test('a 48 MiB export streams: reading never runs more than a few MiB ahead of writing', async () => {
  const app = await buildTestApp()
  const root = mkdtempSync(path.join(tmpdir(), 'export-stream-'))
  try {
    const local = new LocalObjectStore(root)
    const now = new Date('2030-10-01T00:00:00Z')
    const person = await largePerson(app.db, local, now, {
      instances: 48,
      bytesEach: MiB,
      seriesOf: 20,
    })
    const store = new CountingStore(local)
    const summary = await writeArchive(
      {
        db: app.db,
        store,
        cipher: app.personalCipher,
        now: () => now,
        fontPath: null,
        opinionPdf: null,
      },
      person.userId,
      'exports/stream-test/archive.zip',
    )
    assert.equal(summary.instances, 48)
    assert.equal(store.read, person.totalBytes)
    assert.ok(store.written > person.totalBytes, `wrote ${store.written}`)
    assert.ok(
      store.maxLead < 8 * MiB,
      `reading ran ${(store.maxLead / MiB).toFixed(1)} MiB ahead of writing`,
    )
    // And the archive is whole: every object in it, under the DICOM/ tree of three series.
    const entries = await unzip(
      await readAll((await local.get('exports/stream-test/archive.zip')).body),
    )
    const dicom = [...entries.keys()].filter((name) => name.startsWith('DICOM/'))
    assert.equal(dicom.length, 48)
    assert.equal(new Set(dicom.map((name) => name.split('/')[3])).size, 3)
    assert.equal(entries.get(dicom[0]!)!.length, MiB)
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
})
