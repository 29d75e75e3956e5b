// test-server: no database
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { Readable } from 'node:stream'
import { after, before, test } from 'node:test'
import { isStorageFull, S3ObjectStore, StorageFullError } from '../../src/storage'

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'

/*
 * An S3-compatible service that is out of space (MinIO answers 507 XMinioStorageFull once its
 * drives pass their free-space threshold): the adapter's put, of a buffer and of a stream long
 * enough for a multipart upload, throws StorageFullError naming the bucket, which the app answers
 * 507 and does not retry. The service here is a loopback HTTP server that answers every write so.
 */

const requests: string[] = []
const server = createServer((request, response) => {
  requests.push(`${request.method} ${request.url?.split('?')[1] ?? ''}`)
  request.resume()
  request.on('end', () => {
    // Starting and aborting a multipart upload are not writes of data; only those succeed.
    if (request.method === 'POST' && request.url?.includes('uploads')) {
      response.writeHead(200, { 'content-type': 'application/xml' })
      response.end(
        '<InitiateMultipartUploadResult><Bucket>full-bucket</Bucket><Key>k</Key><UploadId>u1</UploadId></InitiateMultipartUploadResult>',
      )
      return
    }
    if (request.method === 'DELETE') {
      response.writeHead(204).end()
      return
    }
    response.writeHead(507, { 'content-type': 'application/xml' })
    response.end(
      '<?xml version="1.0" encoding="UTF-8"?><Error><Code>XMinioStorageFull</Code>' +
        '<Message>Storage backend has reached its minimum free drive threshold.</Message></Error>',
    )
  })
})
let store: S3ObjectStore

before(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  store = new S3ObjectStore({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    bucket: 'full-bucket',
    region: 'us-east-1',
    accessKeyId: 'test',
    secretAccessKey: 'test',
    forcePathStyle: true,
  })
})

after(async () => {
  store.client.destroy()
  await new Promise((resolve) => server.close(resolve))
})

test('a full S3 service: put throws StorageFullError naming the bucket (buffer and multipart stream)', async () => {
  const big = randomBytes(17 * 1024 * 1024)
  for (const body of [Buffer.from('small'), Readable.from([big])]) {
    await assert.rejects(
      store.put('staging/stow/x/0', body, { contentType: 'application/dicom' }),
      (error: unknown) => {
        assert.ok(error instanceof StorageFullError, String(error))
        assert.equal(error.storage, 's3 full-bucket')
        assert.equal(error.code, 'XMinioStorageFull')
        return true
      },
    )
  }
  // The multipart upload that met it was aborted, not left to hold its parts.
  assert.ok(
    requests.some((line) => line.startsWith('DELETE uploadId=')),
    requests.join('\n'),
  )
})

test('what counts as a full storage, and what does not', () => {
  const errno = (code: string) => Object.assign(new Error(code), { code })
  assert.equal(isStorageFull(errno('ENOSPC')), true)
  assert.equal(isStorageFull(errno('EDQUOT')), true)
  assert.equal(isStorageFull({ name: 'Whatever', $metadata: { httpStatusCode: 507 } }), true)
  assert.equal(isStorageFull(errno('EACCES')), false)
  assert.equal(isStorageFull(errno('EIO')), false)
  assert.equal(isStorageFull({ name: 'SlowDown', $metadata: { httpStatusCode: 503 } }), false)
  assert.equal(isStorageFull(new Error('ENOSPC in a message only')), false)
  assert.equal(isStorageFull(undefined), false)
})
