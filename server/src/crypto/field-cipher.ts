import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto'

/**
 * Encryption of single personal-data fields (ID card numbers, holder names) with AES-256-GCM.
 * Stored form: `v1.<iv>.<tag>.<ciphertext>` (base64url parts). The version prefix lets a later key
 * rotation or algorithm change tell old rows from new ones without a schema change.
 */
const VERSION = 'v1'
const IV_BYTES = 12

export interface FieldCipher {
  encrypt(plaintext: string): string
  decrypt(stored: string): string
  /**
   * A keyed digest of a value, for equality look-ups (one ID number on one account) without
   * decrypting every row. Keyed so the table alone does not allow guessing numbers by brute force.
   */
  digest(value: string): string
}

export function createFieldCipher(key: Buffer): FieldCipher {
  if (key.length !== 32) throw new Error('field cipher key must be 32 bytes')
  // Separate sub-keys: the same secret is never used both to encrypt and to MAC.
  const encryptionKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'field-encrypt', 32))
  const digestKey = Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'field-digest', 32))

  return {
    encrypt(plaintext) {
      const iv = randomBytes(IV_BYTES)
      const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv)
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()])
      const tag = cipher.getAuthTag()
      return [VERSION, iv, tag, body]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.')
    },
    decrypt(stored) {
      const [version, iv, tag, body] = stored.split('.')
      if (version !== VERSION || iv === undefined || tag === undefined || body === undefined) {
        throw new Error('unknown encrypted field format')
      }
      const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(iv, 'base64url'))
      decipher.setAuthTag(Buffer.from(tag, 'base64url'))
      return Buffer.concat([
        decipher.update(Buffer.from(body, 'base64url')),
        decipher.final(),
      ]).toString('utf8')
    },
    digest(value) {
      return createHmac('sha256', digestKey).update(value, 'utf8').digest('hex')
    },
  }
}
