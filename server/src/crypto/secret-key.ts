import { createHmac, hkdfSync } from 'node:crypto'
import { DEVELOPMENT_SECRET_KEY } from '../config'
import { createFieldCipher } from './field-cipher'

let hmacKey = deriveHmacKey(DEVELOPMENT_SECRET_KEY)
let sealer = createFieldCipher(DEVELOPMENT_SECRET_KEY)

function deriveHmacKey(secret: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, Buffer.alloc(0), 'keyed-hash', 32))
}

/**
 * Sets the server secret (SECRET_KEY) that keyedHash uses. One key per process: buildApp sets it from
 * the configuration; until then (domain tests) the public development key is used.
 */
export function setSecretKey(secret: Buffer): void {
  hmacKey = deriveHmacKey(secret)
  sealer = createFieldCipher(secret)
}

/**
 * HMAC-SHA256 (hex) with the server secret, for low-entropy values that must be compared but not
 * recoverable: SMS codes (a million possibilities), phone numbers and client addresses in limit keys.
 * A bare SHA-256 of those is reversed by trying every value; without the key it is not. `label`
 * separates uses, so a hash made for one purpose never matches another's.
 */
export function keyedHash(label: string, value: string): string {
  return createHmac('sha256', hmacKey).update(`${label}\0${value}`, 'utf8').digest('hex')
}

/**
 * AES-256-GCM under the server secret, for the few stored texts that must be read back in clear:
 * the SMS outbox's messages (the demo reads its codes). Tampering or a changed key makes
 * `openWithSecret` throw.
 */
export function sealWithSecret(text: string): string {
  return sealer.encrypt(text)
}

export function openWithSecret(sealed: string): string {
  return sealer.decrypt(sealed)
}
