import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { type Algorithm, hash, verify } from '@node-rs/argon2'

/**
 * SHA-256 (hex) of a high-entropy secret (access and refresh tokens, tickets). A fast hash is right for
 * those: they are 32 random bytes, so the hash cannot be reversed by guessing, and lookups stay cheap.
 * Never use it for passwords (see hashPassword).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret, 'utf8').digest('hex')
}

/** Equality of two hex hashes without leaking where they differ through timing. */
export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8')
  const right = Buffer.from(b, 'utf8')
  return left.length === right.length && timingSafeEqual(left, right)
}

/** An opaque bearer secret: 32 random bytes, base64url (43 characters). */
export function randomToken(): string {
  return randomBytes(32).toString('base64url')
}

/** A uniformly random code of `digits` decimal digits (leading zeros kept). */
export function randomDigits(digits = 6): string {
  return String(randomInt(0, 10 ** digits)).padStart(digits, '0')
}

/*
 * argon2id with the OWASP baseline (19 MiB, 2 passes, 1 lane): slow enough to make offline guessing
 * expensive, fast enough (tens of ms) that a login stays responsive.
 */
const ARGON2_OPTIONS = {
  // Algorithm.Argon2id; the enum is an ambient const enum, unusable under isolatedModules.
  algorithm: 2 as Algorithm,
  memoryCost: 19456,
  timeCost: 2,
  parallelism: 1,
} as const

export function hashPassword(password: string): Promise<string> {
  return hash(password, ARGON2_OPTIONS)
}

/** False (never throws) for a wrong password or a malformed stored hash. */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await verify(passwordHash, password)
  } catch {
    return false
  }
}

let dummyHash: Promise<string> | undefined

/**
 * Verifies against a throwaway hash so that a login for an unknown phone (or an account without a
 * password) takes as long as a real one: response time must not reveal whether an account exists.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  dummyHash ??= hashPassword(randomToken())
  await verifyPassword(await dummyHash, password)
  return false
}
