import Taro from '@tarojs/taro'

/*
 * A signed-out reader's id (X-Reader-Id): 32 random URL-safe characters kept on this device, so
 * the server counts one read per reader per day without an account. It names nobody: it is made
 * here, at random, and never joined to anything else.
 */

const KEY = 'yx-reader-id'
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function randomId(): string {
  const bytes = new Uint8Array(32)
  if (typeof crypto !== 'undefined' && typeof crypto.getRandomValues === 'function') {
    crypto.getRandomValues(bytes)
  } else {
    // The mini-program has no Web Crypto; a read counter needs uniqueness, not secrecy.
    for (let i = 0; i < bytes.length; i += 1) bytes[i] = Math.floor(Math.random() * 256)
  }
  return Array.from(bytes, (b) => ALPHABET[b & 63]).join('')
}

export function readerId(): string {
  const stored: unknown = Taro.getStorageSync(KEY)
  if (typeof stored === 'string' && /^[A-Za-z0-9_-]{32}$/.test(stored)) return stored
  const id = randomId()
  Taro.setStorageSync(KEY, id)
  return id
}
