import type { FastifyInstance } from 'fastify'
import { issueToken, register, resetPassword, sendSmsCode } from '@contract/sso/auth'
import {
  assertPublicPurpose,
  issueSmsCode,
  loginWithPassword,
  loginWithSmsCode,
  refreshSession,
  registerWithSmsCode,
  resetPasswordWithSmsCode,
} from '../../domain/identity'
import { clientOf } from '../../http/client'
import { route } from '../../http/route'
import { auditedLogin, auditPasswordReset } from '../login-audit'

/** Sign-on service: codes, tokens (password, SMS code, refresh), registration, password reset. */
export default async function ssoAuthRoutes(app: FastifyInstance): Promise<void> {
  // Any phone number: own-phone purposes (delete, verify-old) go through sendOwnCode only.
  route(app, sendSmsCode, async ({ mobile, purpose }, { request }) => {
    assertPublicPurpose(purpose)
    return issueSmsCode(app.db, app.providers.sms, {
      mobile,
      purpose,
      ip: request.ip,
      now: app.now(),
    })
  })

  route(app, issueToken, async (input, { request }) => {
    const now = app.now()
    switch (input.grant_type) {
      case 'password':
        return auditedLogin(app, request, '密码', input.username, () =>
          loginWithPassword(app.db, {
            mobile: input.username,
            password: input.password,
            now,
            ip: request.ip,
          }),
        )
      case 'sms_code':
        return auditedLogin(app, request, '验证码', input.mobile, () =>
          loginWithSmsCode(app.db, {
            mobile: input.mobile,
            code: input.code,
            now,
            ip: request.ip,
          }),
        )
      case 'refresh_token':
        return refreshSession(app.db, input.refresh_token, now, clientOf(request))
    }
  })

  route(app, register, async ({ mobile, code, password }, { request }) =>
    auditedLogin(app, request, '注册', mobile, () =>
      registerWithSmsCode(app.db, { mobile, code, password, now: app.now(), ip: request.ip }),
    ),
  )

  route(app, resetPassword, async ({ mobile, code, password }, { request }) => {
    const now = app.now()
    await resetPasswordWithSmsCode(app.db, { mobile, code, password, now, ip: request.ip })
    await auditPasswordReset(app, request, mobile, now)
    return { ok: true as const }
  })
}
