import Taro from '@tarojs/taro'
import type { StateStorage } from 'zustand/middleware'

/** The part of Taro's storage API the adapter needs; tests pass an in-memory one. */
export interface SyncStorageApi {
  getStorageSync: (key: string) => unknown
  setStorageSync: (key: string, data: unknown) => void
  removeStorageSync: (key: string) => void
}

/**
 * A zustand StateStorage over Taro's synchronous storage. Synchronous on purpose: persisted stores
 * then hydrate while they are created, so the launch checks read the stored policy version and the
 * http layer reads the token without waiting for a hydration promise.
 */
/**
 * Each call written as `Taro.x(...)`: the H5 build turns those member calls into imports of the web
 * implementation, while its default `Taro` object has no storage APIs, so passing `Taro` itself
 * made every write throw (and be swallowed below) and nothing persisted across a reload.
 */
const taroStorageApi: SyncStorageApi = {
  getStorageSync: (key) => Taro.getStorageSync(key),
  setStorageSync: (key, data) => Taro.setStorageSync(key, data),
  removeStorageSync: (key) => Taro.removeStorageSync(key),
}

export function createTaroStorage(api: SyncStorageApi = taroStorageApi): StateStorage<void> {
  return {
    getItem: (name) => {
      try {
        const value = api.getStorageSync(name)
        // Taro answers '' for a missing key.
        return typeof value === 'string' && value !== '' ? value : null
      } catch {
        // A corrupt or unreadable entry must not stop the app from starting: start from defaults.
        return null
      }
    },
    setItem: (name, value) => {
      try {
        api.setStorageSync(name, value)
      } catch {
        // Storage full or unavailable (private browsing): the state still lives in memory.
      }
    },
    removeItem: (name) => {
      try {
        api.removeStorageSync(name)
      } catch {
        // Nothing to do: the entry is gone or storage is unavailable.
      }
    },
  }
}

export const taroStorage = createTaroStorage()

/** In-memory storage for tests and for platforms without persistent storage. */
export function createMemoryStorage(): SyncStorageApi & { dump: () => Record<string, unknown> } {
  const data = new Map<string, unknown>()
  return {
    getStorageSync: (key) => (data.has(key) ? data.get(key) : ''),
    setStorageSync: (key, value) => {
      data.set(key, value)
    },
    removeStorageSync: (key) => {
      data.delete(key)
    },
    dump: () => Object.fromEntries(data),
  }
}
