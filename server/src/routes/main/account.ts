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
import {
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
import { currentUser } from '../../http/auth'
import { badRequest, notFound, unauthorized } from '../../http/errors'
import { route } from '../../http/route'

/**
 * Main service, account family: the identity part (login, register, codes, profile, logout, password,
 * WeChat login, the demo SMS outbox). Answers match the sign-on service's: the same session object.
 */
export default async function mainAccountRoutes(app: FastifyInstance): Promise<void> {
  route(app, appLogin, async (input, { request }) => {
    const now = app.now()
    return 'password' in input
      ? loginWithPassword(app.db, {
          mobile: input.mobile,
          password: input.password,
          now,
          ip: request.ip,
        })
      : loginWithSmsCode(app.db, { mobile: input.mobile, code: input.code, now, ip: request.ip })
  })

  route(app, appRegister, async ({ mobile, code, password }) =>
    registerWithSmsCode(app.db, { mobile, code, password, now: app.now() }),
  )

  route(app, sendCode, async ({ mobile, purpose }, { request }) =>
    issueSmsCode(app.db, app.providers.sms, { mobile, purpose, ip: request.ip, now: app.now() }),
  )

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

  route(app, validateCode, async ({ mobile, code, purpose }) =>
    validateSmsCode(app.db, { mobile, code, purpose, now: app.now() }),
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
    await revokeSession(app.db, currentUser(request).sessionId, app.now())
    return { ok: true as const }
  })

  route(app, changePassword, async ({ oldPassword, newPassword }, { request }) =>
    changeUserPassword(app.db, {
      userId: currentUser(request).id,
      ...(oldPassword ? { oldPassword } : {}),
      newPassword,
      now: app.now(),
    }),
  )

  route(app, getPassword, async ({ mobile, code, password }) => {
    await resetPasswordWithSmsCode(app.db, { mobile, code, password, now: app.now() })
    return { ok: true as const }
  })

  route(app, wechatLogin, async ({ code }) =>
    loginWithWechat(app.db, app.providers.wechat, { code, now: app.now() }),
  )

  // Demo mode only: outside it the route does not exist at all (404), so no code can be read back.
  if (app.config.demoMode) {
    route(app, demoLatestSms, async ({ mobile }) => {
      const sent = await app.db
        .selectFrom('sms_outbox')
        .selectAll()
        .where('mobile', '=', mobile)
        // Codes only: security notices share the outbox (purpose 'notice') but are not codes.
        .where('purpose', 'in', SMS_PURPOSES)
        .orderBy('created_at', 'desc')
        .limit(1)
        .executeTakeFirst()
      if (!sent) throw notFound('没有发往该手机号的验证码')
      return {
        mobile: sent.mobile,
        code: sent.code,
        purpose: sent.purpose as SmsPurpose,
        sentAt: sent.created_at,
      }
    })
  }
}
