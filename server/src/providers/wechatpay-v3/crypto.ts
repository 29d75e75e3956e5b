import {
  constants,
  createDecipheriv,
  createSign,
  createVerify,
  type KeyObject,
  publicEncrypt,
} from 'node:crypto'

/*
 * The primitives of WeChat Pay APIv3 (微信支付公钥 mode), on Node's crypto only:
 * - RSA-SHA256 signatures (requests and paySign with the merchant key; answers and notifications
 *   verified with the platform's public key);
 * - AEAD_AES_256_GCM, how notification resources are sealed with the 32-byte APIv3 key;
 * - RSA-OAEP (SHA-1, MGF1 SHA-1), how sensitive request fields (user_name, …) are encrypted with
 *   the platform's public key, the request then naming that key in Wechatpay-Serial.
 */

/** The Authorization scheme and the Wechatpay-Signature-Type. */
export const SIGNATURE_SCHEME = 'WECHATPAY2-SHA256-RSA2048'

/** How far a signed timestamp (answer or notification) may be from our clock. */
export const MAX_CLOCK_SKEW_MS = 5 * 60_000

export function rsaSign(message: string, key: KeyObject): string {
  return createSign('RSA-SHA256').update(message, 'utf8').sign(key, 'base64')
}

export function rsaVerify(message: string, signature: string, key: KeyObject): boolean {
  try {
    return createVerify('RSA-SHA256').update(message, 'utf8').verify(key, signature, 'base64')
  } catch {
    return false
  }
}

/**
 * A sensitive field for a request body (e.g. 商家转账's user_name): RSA-OAEP with SHA-1 (WeChat's
 * "RSA/ECB/OAEPWithSHA-1AndMGF1Padding") under the platform's public key, base64. Randomised: the
 * same name encrypts differently each time, so WeChat compares what it decrypts, not the text.
 */
export function encryptSensitive(plain: string, platformPublicKey: KeyObject): string {
  return publicEncrypt(
    { key: platformPublicKey, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha1' },
    Buffer.from(plain, 'utf8'),
  ).toString('base64')
}

/** A notification's `resource`, as WeChat seals it. */
export interface SealedResource {
  ciphertext: string
  nonce: string
  associated_data?: string | undefined
}

/**
 * Opens a sealed resource (AEAD_AES_256_GCM: the APIv3 key, the 12-character nonce and
 * associated_data; the last 16 bytes of the ciphertext are the tag). Throws when it does not open:
 * a wrong key, a changed byte anywhere, a wrong nonce or associated_data.
 */
export function decryptResource(resource: SealedResource, apiv3Key: Buffer): string {
  const sealed = Buffer.from(resource.ciphertext, 'base64')
  if (sealed.length <= 16) throw new Error('ciphertext too short')
  const decipher = createDecipheriv('aes-256-gcm', apiv3Key, Buffer.from(resource.nonce, 'utf8'))
  decipher.setAAD(Buffer.from(resource.associated_data ?? '', 'utf8'))
  decipher.setAuthTag(sealed.subarray(sealed.length - 16))
  return Buffer.concat([
    decipher.update(sealed.subarray(0, sealed.length - 16)),
    decipher.final(),
  ]).toString('utf8')
}

/** WeChat's times: RFC 3339 in Beijing time (2025-06-08T10:34:56+08:00). */
export function beijingTime(date: Date): string {
  return new Date(date.getTime() + 8 * 3_600_000).toISOString().replace(/\.\d{3}Z$/, '+08:00')
}

/** The calendar day in Beijing (YYYY-MM-DD) of a moment. */
export function beijingDate(date: Date): string {
  return beijingTime(date).slice(0, 10)
}

/** A WeChat time (RFC 3339) as ISO UTC; null when absent or unreadable. */
export function isoOrNull(text: string | undefined | null): string | null {
  if (!text) return null
  const time = new Date(text)
  return Number.isNaN(time.getTime()) ? null : time.toISOString()
}
