import path from 'node:path'
import type { StorageConfig } from '../config'
import { LOCAL_STORE_DIR, LocalObjectStore } from './local'
import type { ObjectStore } from './object-store'
import { S3ObjectStore } from './s3'

export * from './object-store'
export { LOCAL_STORE_DIR, LocalObjectStore } from './local'
export { S3ObjectStore } from './s3'

/** The store the configuration names (STORAGE=local|s3); local objects live under UPLOAD_DIR. */
export function createObjectStore(storage: StorageConfig, uploadDir: string): ObjectStore {
  if (storage.kind === 's3') return new S3ObjectStore(storage)
  return new LocalObjectStore(path.join(uploadDir, LOCAL_STORE_DIR))
}
