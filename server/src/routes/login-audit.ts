import type { FastifyInstance, FastifyRequest } from 'fastify'
import type { Session } from '@contract/sso/auth'
import { recordAudit } from '../domain/audit'
import { findUserByMobile, isLoginLocked } from '../domain/identity'
import { MINUTE } from '../domain/identity/time'
import { clientOf } from '../http/client'
import { ApiError } from '../http/errors'

export type LoginMethod = '密码' | '验证码' | '微信' | '注册'

/**
 * Runs a login and writes it to the account's security record: success as 'login' with the method,
 * and for password logins a wrong password as 'login-failed' and a refusal by the phone's lock as
 * 'lock' (at most one a quarter hour). Failures are recorded only for a number that has an account,
 * and never answered differently, so the record reveals nothing to the caller.
 */
export async function auditedLogin(
  app: FastifyInstance,
  request: FastifyRequest,
  method: LoginMethod,
  mobile: string | undefined,
  login: () => Promise<Session>,
): Promise<Session> {
  const now = app.now()
  const client = clientOf(request)
  let session: Session
  try {
    session = await login()
  } catch (error) {
    if (method === '密码' && mobile && error instanceof ApiError) {
      // Typed, not matched by text: any other 429 (per-address limit, a busy server) is no lock.
      const locked = isLoginLocked(error)
      if (error.statusCode === 400 || locked) {
        const user = await findUserByMobile(app.db, mobile)
        if (user) {
          await recordAudit(app.db, {
            userId: user.id,
            kind: locked ? 'lock' : 'login-failed',
            client,
            now,
            detail: method,
            ...(locked ? { unlessWithinMs: 15 * MINUTE } : {}),
          })
        }
      }
    }
    throw error
  }
  await recordAudit(app.db, {
    userId: session.user.id,
    kind: method === '注册' ? 'register' : 'login',
    client,
    now,
    ...(method === '注册' ? {} : { detail: method }),
  })
  return session
}

/** After a password reset by SMS code: the account of that number gets a 'password-reset' event. */
export async function auditPasswordReset(
  app: FastifyInstance,
  request: FastifyRequest,
  mobile: string,
  now: Date,
): Promise<void> {
  const user = await findUserByMobile(app.db, mobile)
  if (user) {
    await recordAudit(app.db, {
      userId: user.id,
      kind: 'password-reset',
      client: clientOf(request),
      now,
    })
  }
}
