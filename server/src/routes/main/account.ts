import type { FastifyInstance } from 'fastify'
import {
  appLogin,
  appRegister,
  changePassword,
  demoLatestSms,
  getPassword,
  getProfile,
  logout,
  refreshUserCache,
  sendCode,
  sendOwnCode,
  validateCode,
  wechatLogin,
} from '@contract/main/account'
import { SMS_PURPOSES, type SmsPurpose } from '@contract/sso/auth'
import { getRetention } from '@contract/main/retention'
import { listSecurityEvents } from '@contract/main/security'
import {
  assertPublicPurpose,
  changePassword as changeUserPassword,
  findUserById,
  issueSmsCode,
  loadProfile,
  loginWithPassword,
  loginWithSmsCode,
  loginWithWechat,
  maskMobile,
  registerWithSmsCode,
  resetPasswordWithSmsCode,
  revokeSession,
  SESSION_EXPIRED,
  validateSmsCode,
} from '../../domain/identity'
import { listAuditEvents, recordAudit } from '../../domain/audit'
import { keptAfterDeletion } from '../../domain/retention'
import { currentUser } from '../../http/auth'
import { clientOf } from '../../http/client'
import { badRequest, notFound, unauthorized } from '../../http/errors'
import { route } from '../../http/route'
import { readOutbox } from '../../providers/sms'
import { auditedLogin, auditPasswordReset } from '../login-audit'

/**
 * Main service, account family: the identity part (login, register, codes, profile, logout, password,
 * WeChat login, the demo SMS outbox). Answers match the sign-on service's: the same session object.
 */
export default async function mainAccountRoutes(app: FastifyInstance): Promise<void> {
  route(app, appLogin, async (input, { request }) => {
    const now = app.now()
    return 'password' in input
      ? auditedLogin(app, request, '密码', input.mobile, () =>
          loginWithPassword(app.db, {
            mobile: input.mobile,
            password: input.password,
            now,
            ip: request.ip,
          }),
        )
      : auditedLogin(app, request, '验证码', input.mobile, () =>
          loginWithSmsCode(app.db, { mobile: input.mobile, code: input.code, now, ip: request.ip }),
        )
  })

  route(app, appRegister, async ({ mobile, code, password }, { request }) =>
    auditedLogin(app, request, '注册', mobile, () =>
      registerWithSmsCode(app.db, { mobile, code, password, now: app.now(), ip: request.ip }),
    ),
  )

  // Any phone number: own-phone purposes (delete, verify-old) go through sendOwnCode only.
  route(app, sendCode, async ({ mobile, purpose }, { request }) => {
    assertPublicPurpose(purpose)
    return issueSmsCode(app.db, app.providers.sms, {
      mobile,
      purpose,
      ip: request.ip,
      now: app.now(),
    })
  })

  // Deleting an account confirms with a code sent to the account's own phone, which the app only
  // knows masked; the server looks the number up, so the full number never leaves it.
  route(app, sendOwnCode, async ({ purpose }, { request }) => {
    const user = await findUserById(app.db, currentUser(request).id)
    if (!user) throw unauthorized(SESSION_EXPIRED)
    if (!user.mobile) {
      throw badRequest(
        purpose === 'verify-old'
          ? '当前账号未绑定手机号，请使用登录密码验证'
          : '当前账号未绑定手机号，请先绑定手机号',
      )
    }
    const sent = await issueSmsCode(app.db, app.providers.sms, {
      mobile: user.mobile,
      purpose,
      ip: request.ip,
      now: app.now(),
    })
    return { ...sent, mobileMasked: maskMobile(user.mobile) }
  })

  route(app, validateCode, async ({ mobile, code, purpose }, { request }) =>
    validateSmsCode(app.db, { mobile, code, purpose, now: app.now(), ip: request.ip }),
  )

  const profileOfCaller = async (userId: string) => {
    const user = await findUserById(app.db, userId)
    if (!user) throw unauthorized(SESSION_EXPIRED)
    return loadProfile(app.db, user)
  }

  route(app, getProfile, async (_input, { request }) => profileOfCaller(currentUser(request).id))

  // The reference server keeps no user cache: "refresh" answers the profile freshly read.
  route(app, refreshUserCache, async (_input, { request }) =>
    profileOfCaller(currentUser(request).id),
  )

  route(app, logout, async (_input, { request }) => {
    const { id, sessionId } = currentUser(request)
    const now = app.now()
    await revokeSession(app.db, sessionId, now)
    await recordAudit(app.db, { userId: id, kind: 'logout', client: clientOf(request), now })
    return { ok: true as const }
  })

  route(app, changePassword, async ({ oldPassword, newPassword }, { request }) => {
    const { id } = currentUser(request)
    const now = app.now()
    const session = await changeUserPassword(app.db, {
      userId: id,
      ...(oldPassword ? { oldPassword } : {}),
      newPassword,
      now,
    })
    await recordAudit(app.db, {
      userId: id,
      kind: 'password-change',
      client: clientOf(request),
      now,
    })
    return session
  })

  route(app, getPassword, async ({ mobile, code, password }, { request }) => {
    const now = app.now()
    await resetPasswordWithSmsCode(app.db, { mobile, code, password, now, ip: request.ip })
    await auditPasswordReset(app, request, mobile, now)
    return { ok: true as const }
  })

  route(app, wechatLogin, async ({ code }, { request }) =>
    auditedLogin(app, request, '微信', undefined, () =>
      loginWithWechat(app.db, app.providers.wechat, { code, now: app.now() }),
    ),
  )

  route(app, listSecurityEvents, async ({ page, pageSize }, { request }) =>
    listAuditEvents(app.db, currentUser(request).id, { page, pageSize }),
  )

  // Only the caller's own records: the account is the session's, no parameter names another.
  route(app, getRetention, async (_input, { request }) => ({
    keptAfterDeletion: await keptAfterDeletion(app.db, currentUser(request).id, app.now()),
  }))

  // Demo mode only: outside it the route does not exist at all (404), so no code can be read back.
  if (app.config.demoMode) {
    route(app, demoLatestSms, async ({ mobile }) => {
      // Codes only: security notices share the outbox (purpose 'notice') but are not codes.
      const sent = (await readOutbox(app.db, mobile, { purposes: SMS_PURPOSES })).at(-1)
      if (!sent) throw notFound('没有发往该手机号的验证码')
      return {
        mobile,
        code: sent.code,
        purpose: sent.purpose as SmsPurpose,
        sentAt: sent.created_at,
      }
    })
  }
}
