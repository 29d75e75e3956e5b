// test-server: no database
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import os from 'node:os'
import path from 'node:path'
import { after, before } from 'node:test'
import { CreateBucketCommand } from '@aws-sdk/client-s3'
import S3rver from 's3rver'
import { S3ObjectStore } from '../../src/storage'
import { objectStoreContract } from './contract'

// The SDK warns once per process that its 2027 releases need Node 22; the tests run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true'

/*
 * The S3 adapter against s3rver, an S3-protocol server in Node, on a free loopback port: the same
 * requests (SigV4, path-style, ranges, multipart, DeleteObjects) a real service answers.
 */
const directory = mkdtempSync(path.join(os.tmpdir(), 's3rver-'))
const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory })
let store: S3ObjectStore | undefined

before(async () => {
  const { port } = (await server.run()) as AddressInfo
  store = new S3ObjectStore({
    endpoint: `http://127.0.0.1:${port}`,
    bucket: 'yingxiang-test',
    region: 'us-east-1',
    // s3rver's fixed development credentials.
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    forcePathStyle: true,
  })
  await store.client.send(new CreateBucketCommand({ Bucket: 'yingxiang-test' }))
})

after(async () => {
  store?.client.destroy()
  await server.close()
  rmSync(directory, { recursive: true, force: true })
})

objectStoreContract('s3', () => store!)
