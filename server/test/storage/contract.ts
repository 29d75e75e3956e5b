import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import { test } from 'node:test'
import {
  DEFAULT_CONTENT_TYPE,
  InvalidKeyError,
  ObjectNotFoundError,
  type ObjectStore,
  RangeNotSatisfiableError,
} from '../../src/storage'

/*
 * The behaviour every ObjectStore adapter owes its callers, run against each adapter
 * (local.test.ts, s3.test.ts). A difference between adapters is a bug in one of them.
 */

async function read(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(Buffer.from(chunk as Buffer))
  return Buffer.concat(chunks)
}

export function objectStoreContract(name: string, open: () => ObjectStore): void {
  const bytes = Buffer.from('0123456789abcdefghij')

  test(`${name}: put then get returns the bytes, size and content type`, async () => {
    const store = open()
    const info = await store.put('studies/1.2.3/a.dcm', bytes, { contentType: 'application/dicom' })
    assert.deepEqual(info, {
      key: 'studies/1.2.3/a.dcm',
      size: 20,
      contentType: 'application/dicom',
    })
    const got = await store.get('studies/1.2.3/a.dcm')
    assert.equal(got.contentType, 'application/dicom')
    assert.equal(got.size, 20)
    assert.deepEqual([got.start, got.end, got.length], [0, 19, 20])
    assert.deepEqual(await read(got.body), bytes)
    assert.deepEqual(await store.head('studies/1.2.3/a.dcm'), info)
    assert.equal(await store.exists('studies/1.2.3/a.dcm'), true)
  })

  test(`${name}: a put replaces the object and its content type`, async () => {
    const store = open()
    await store.put('replace/x', bytes, { contentType: 'image/png' })
    await store.put('replace/x', Buffer.from('new'), { contentType: 'image/jpeg' })
    const got = await store.get('replace/x')
    assert.equal(got.contentType, 'image/jpeg')
    assert.equal((await read(got.body)).toString(), 'new')
  })

  test(`${name}: a put with the default content type replaces a typed one`, async () => {
    const store = open()
    await store.put('retype/x', bytes, { contentType: 'image/png' })
    await store.put('retype/x', Buffer.from('raw'), { contentType: DEFAULT_CONTENT_TYPE })
    const got = await store.get('retype/x')
    assert.equal(got.contentType, DEFAULT_CONTENT_TYPE)
    assert.equal((await read(got.body)).toString(), 'raw')
  })

  test(`${name}: deferred puts read back at once and are made durable by sync`, async () => {
    const store = open()
    const keys = ['batch/b1/0.dcm', 'batch/b1/0.pixels', 'batch/b1/deeper/1.dcm']
    for (const [index, key] of keys.entries()) {
      await store.put(key, Buffer.from(`object ${index}`), {
        contentType: key.endsWith('.dcm') ? 'application/dicom' : DEFAULT_CONTENT_TYPE,
        durability: 'deferred',
      })
    }
    await store.sync(keys)
    await store.sync([])
    for (const [index, key] of keys.entries()) {
      const got = await store.get(key)
      assert.equal((await read(got.body)).toString(), `object ${index}`)
      assert.equal(
        got.contentType,
        key.endsWith('.dcm') ? 'application/dicom' : DEFAULT_CONTENT_TYPE,
      )
    }
    // A row about to point at a key that is not there must not be committed.
    await assert.rejects(store.sync([...keys, 'batch/b1/gone']), ObjectNotFoundError)
    await assert.rejects(store.sync(['../escape']), InvalidKeyError)
  })

  test(`${name}: byte ranges (inclusive end, open end, suffix, end clamped)`, async () => {
    const store = open()
    await store.put('video/v.mp4', bytes, { contentType: 'video/mp4' })
    const cases: [Parameters<ObjectStore['get']>[1], string, number, number][] = [
      [{ range: { start: 2, end: 5 } }, '2345', 2, 5],
      [{ range: { start: 15 } }, 'fghij', 15, 19],
      [{ range: { suffix: 3 } }, 'hij', 17, 19],
      [{ range: { suffix: 100 } }, bytes.toString(), 0, 19],
      [{ range: { start: 18, end: 1000 } }, 'ij', 18, 19],
      [{ range: { start: 0, end: 0 } }, '0', 0, 0],
    ]
    for (const [options, expected, start, end] of cases) {
      const got = await store.get('video/v.mp4', options)
      assert.equal((await read(got.body)).toString(), expected, JSON.stringify(options))
      assert.deepEqual(
        [got.start, got.end, got.length, got.size],
        [start, end, end - start + 1, 20],
      )
      assert.equal(got.contentType, 'video/mp4')
    }
  })

  test(`${name}: a range past the end is 416 with the size; a reversed one too`, async () => {
    const store = open()
    await store.put('range/r', bytes, { contentType: 'text/plain' })
    for (const range of [{ start: 20 }, { start: 25, end: 30 }, { start: 5, end: 2 }]) {
      await assert.rejects(store.get('range/r', { range }), (error: unknown) => {
        assert.ok(error instanceof RangeNotSatisfiableError, JSON.stringify(range))
        assert.equal(error.size, 20)
        return true
      })
    }
  })

  test(`${name}: missing objects`, async () => {
    const store = open()
    await assert.rejects(store.get('missing/none'), ObjectNotFoundError)
    await assert.rejects(store.get('missing/none', { range: { start: 0 } }), ObjectNotFoundError)
    assert.equal(await store.head('missing/none'), undefined)
    assert.equal(await store.exists('missing/none'), false)
    // Deleting what is not there is fine: deletes are retried after a crash.
    await store.delete('missing/none')
  })

  test(`${name}: an empty object`, async () => {
    const store = open()
    await store.put('empty/e', Buffer.alloc(0), { contentType: 'text/plain' })
    const got = await store.get('empty/e')
    assert.equal(got.size, 0)
    assert.equal(got.length, 0)
    assert.equal((await read(got.body)).length, 0)
    await assert.rejects(store.get('empty/e', { range: { start: 0 } }), RangeNotSatisfiableError)
  })

  test(`${name}: streams in, including one larger than an S3 part (multipart)`, async () => {
    const store = open()
    const small = await store.put(
      'stream/small',
      Readable.from([Buffer.from('ab'), Buffer.from('cd')]),
      {
        contentType: 'text/plain',
      },
    )
    assert.equal(small.size, 4)
    assert.equal((await read((await store.get('stream/small')).body)).toString(), 'abcd')

    // 17 MiB in 1 MiB chunks of distinct bytes: three parts of 8 + 8 + 1 MiB on S3.
    const mib = 1024 * 1024
    const pieces = Array.from({ length: 17 }, (_, index) => Buffer.alloc(mib, index))
    const big = await store.put('stream/big.bin', Readable.from(pieces), {
      contentType: 'application/zip',
    })
    assert.equal(big.size, 17 * mib)
    const head = await store.head('stream/big.bin')
    assert.deepEqual(head, {
      key: 'stream/big.bin',
      size: 17 * mib,
      contentType: 'application/zip',
    })
    // Bytes across a part boundary come back in order.
    const got = await store.get('stream/big.bin', {
      range: { start: 8 * mib - 2, end: 8 * mib + 1 },
    })
    assert.deepEqual([...(await read(got.body))], [7, 7, 8, 8])
    const all = await read((await store.get('stream/big.bin')).body)
    assert.ok(all.equals(Buffer.concat(pieces)))
  })

  test(`${name}: a failing input stream stores nothing`, async () => {
    const store = open()
    const failing = new Readable({
      read() {
        this.push(Buffer.from('partial'))
        this.destroy(new Error('connection dropped'))
      },
    })
    await assert.rejects(store.put('broken/b', failing, { contentType: 'text/plain' }), /dropped/)
    assert.equal(await store.exists('broken/b'), false)
  })

  test(`${name}: delete and delete by prefix (a string prefix, as S3 has it)`, async () => {
    const store = open()
    const keys = ['p/study-1/a', 'p/study-1/s/b', 'p/study-10/c', 'p/study-2/d', 'q/study-1/e']
    for (const key of keys) await store.put(key, bytes, { contentType: 'text/plain' })
    await store.delete('p/study-2/d')
    assert.equal(await store.exists('p/study-2/d'), false)
    assert.equal(await store.deletePrefix('p/study-1/'), 2)
    assert.equal(await store.exists('p/study-10/c'), true)
    assert.equal(await store.exists('q/study-1/e'), true)
    assert.equal(await store.deletePrefix('p/study-1'), 1)
    assert.equal(await store.exists('p/study-10/c'), false)
    assert.equal(await store.deletePrefix('p/nothing'), 0)
    assert.equal(await store.exists('q/study-1/e'), true)
  })

  test(`${name}: unsafe keys and prefixes are refused before touching storage`, async () => {
    const store = open()
    const bad = [
      '',
      '../x',
      'a/../../x',
      '/etc/passwd',
      'a//b',
      'a/./b',
      'a/b/',
      'a\0b',
      'a\\b',
      'C:/x',
      '.hidden/x',
      'a/.meta',
      'a b',
      'x'.repeat(1025),
    ]
    for (const key of bad) {
      await assert.rejects(
        store.put(key, bytes, { contentType: 'text/plain' }),
        InvalidKeyError,
        JSON.stringify(key),
      )
      await assert.rejects(store.get(key), InvalidKeyError)
      await assert.rejects(store.head(key), InvalidKeyError)
      await assert.rejects(store.delete(key), InvalidKeyError)
    }
    for (const prefix of ['', '../', '/abs', 'a/../']) {
      await assert.rejects(store.deletePrefix(prefix), InvalidKeyError, JSON.stringify(prefix))
    }
  })
}
