import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto'
import { availableParallelism } from 'node:os'
import { type Algorithm, hash, type Options, verify } from '@node-rs/argon2'
import { tooManyRequests } from '../../http/errors'

// The server secret's primitives (SECRET_KEY) live with the other cryptography; identity uses them.
export { keyedHash, openWithSecret, sealWithSecret, setSecretKey } from '../../crypto/secret-key'

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

/*
 * The test cost (config.testPasswordHash, set only by a test's configuration): the same algorithm at
 * 256 KiB and 1 pass, about 0.2 ms instead of 20. A hash names its own parameters, so either cost's
 * hashes verify under the other.
 */
const ARGON2_TEST_OPTIONS = { ...ARGON2_OPTIONS, memoryCost: 256, timeCost: 1 } as const

let argon2Options: Options = ARGON2_OPTIONS

/** The app sets this from its configuration at build (app.ts); the production cost until then. */
export function setPasswordHashCost(cost: 'production' | 'test'): void {
  argon2Options = cost === 'test' ? ARGON2_TEST_OPTIONS : ARGON2_OPTIONS
}

export const SERVER_BUSY = '服务繁忙，请稍后再试'

/**
 * A counting semaphore with a bounded queue: at most `max` tasks run at once, at most `maxWaiting`
 * wait, each at most `maxWaitMs`; anyone beyond is refused at once (429) instead of piling up.
 */
export class Gate {
  private running = 0
  private readonly waiting: (() => void)[] = []
  /** Tasks that have finished through the gate (a figure for tests and diagnostics). */
  completed = 0
  /** The most tasks ever seen running at once. */
  peak = 0

  constructor(
    readonly max: number,
    readonly maxWaiting: number,
    readonly maxWaitMs: number,
  ) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await this.wait()
    else this.running += 1
    this.peak = Math.max(this.peak, this.running)
    try {
      return await task()
    } finally {
      this.completed += 1
      const next = this.waiting.shift()
      // The slot passes straight to the next waiter, so a newcomer cannot overtake the queue.
      if (next) next()
      else this.running -= 1
    }
  }

  private wait(): Promise<void> {
    if (this.waiting.length >= this.maxWaiting) return Promise.reject(tooManyRequests(SERVER_BUSY))
    return new Promise((resolve, reject) => {
      const go = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        const index = this.waiting.indexOf(go)
        if (index >= 0) this.waiting.splice(index, 1)
        reject(tooManyRequests(SERVER_BUSY))
      }, this.maxWaitMs)
      timer.unref()
      this.waiting.push(go)
    })
  }
}

/*
 * argon2 runs on libuv's thread pool (4 threads by default), which file and DNS work share. A flood
 * of logins must not occupy all of it, nor queue without bound: at most one check per core (2–4) runs
 * at once, 32 more may wait up to 3 s, the rest are told 服务繁忙 at once. Per process; each process
 * behind a load balancer has its own.
 */
export const argon2Gate = new Gate(Math.min(4, Math.max(2, availableParallelism())), 32, 3000)

export function hashPassword(password: string): Promise<string> {
  return argon2Gate.run(() => hash(password, argon2Options))
}

/**
 * False for a wrong password or a malformed stored hash; throws only the 429 of a full gate.
 */
export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return argon2Gate.run(async () => {
    try {
      return await verify(passwordHash, password)
    } catch {
      return false
    }
  })
}

/** One throwaway hash per cost, so a burned check costs what a real one does at the current cost. */
const dummyHashes = new Map<Options, Promise<string>>()

/**
 * Verifies against a throwaway hash so that a login for an unknown phone (or an account without a
 * password) takes as long as a real one: response time must not reveal whether an account exists.
 */
export async function burnPasswordCheck(password: string): Promise<false> {
  // Made outside the gate: a refused first caller must not leave a rejected promise behind.
  let dummyHash = dummyHashes.get(argon2Options)
  if (!dummyHash) {
    dummyHash = hash(randomToken(), argon2Options)
    dummyHashes.set(argon2Options, dummyHash)
  }
  await verifyPassword(await dummyHash, password)
  return false
}
