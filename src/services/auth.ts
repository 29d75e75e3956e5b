import {
  appLogin as appLoginEndpoint,
  changePassword as changePasswordEndpoint,
  deleteAccount as deleteAccountEndpoint,
  getPassword as getPasswordEndpoint,
  getProfile as getProfileEndpoint,
  logout as logoutEndpoint,
  sendCode as sendCodeEndpoint,
  sendOwnCode as sendOwnCodeEndpoint,
  wechatLogin as wechatLoginEndpoint,
} from '@contract/main/account'
import {
  getRetention as getRetentionEndpoint,
  type KeptAfterDeletion,
} from '@contract/main/retention'
import {
  createQrLogin as createQrLoginEndpoint,
  pollQrLogin as pollQrLoginEndpoint,
} from '@contract/main/qr-login'
import {
  issueToken as issueTokenEndpoint,
  mergeUser as mergeUserEndpoint,
  modifyUser as modifyUserEndpoint,
  register as registerEndpoint,
  resetPassword as resetPasswordEndpoint,
  sendSmsCode as sendSmsCodeEndpoint,
  type Session,
  type SmsPurpose,
  type UserProfile,
} from '@contract/sso/auth'
import type { InputOf, OutputOf } from '@contract/endpoint'
import { useAppStore } from '@/stores/app-store'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { callEndpoint, type CallOptions } from './api'
import type { HttpResponse } from './http'

/**
 * Typed calls of signing in and out (sign-on service and the main service's account family), and
 * the two functions that put a session into the stores or take it out again.
 */

export type { Session, SmsPurpose, UserProfile }
export type CodeSent = OutputOf<typeof sendSmsCodeEndpoint>
export type OwnCodeSent = OutputOf<typeof sendOwnCodeEndpoint>
export type RegisterInput = InputOf<typeof registerEndpoint>
export type ModifyUserInput = InputOf<typeof modifyUserEndpoint>
export type QrLoginTicket = OutputOf<typeof createQrLoginEndpoint>
export type QrLoginState = OutputOf<typeof pollQrLoginEndpoint>

/** Sends an SMS code to `mobile` (sign-on service). */
export function sendSmsCode(
  mobile: string,
  purpose: SmsPurpose,
  options?: CallOptions,
): Promise<CodeSent> {
  return callEndpoint(sendSmsCodeEndpoint, { mobile, purpose }, options)
}

/** The main service's send-code call; same rules as `sendSmsCode`. */
export function sendCode(
  mobile: string,
  purpose: SmsPurpose,
  options?: CallOptions,
): Promise<CodeSent> {
  return callEndpoint(sendCodeEndpoint, { mobile, purpose }, options)
}

/**
 * A code to the signed-in account's own phone, whose full number the app never sees: to delete the
 * account, or (`verify-old`) to prove the owner before the phone is changed.
 */
export function sendOwnCode(
  purpose: InputOf<typeof sendOwnCodeEndpoint>['purpose'],
  options?: CallOptions,
): Promise<OwnCodeSent> {
  return callEndpoint(sendOwnCodeEndpoint, { purpose }, options)
}

export function issueToken(
  input: InputOf<typeof issueTokenEndpoint>,
  options?: CallOptions,
): Promise<Session> {
  return callEndpoint(issueTokenEndpoint, input, options)
}

export function loginWithPassword(
  mobile: string,
  password: string,
  options?: CallOptions,
): Promise<Session> {
  return issueToken({ grant_type: 'password', username: mobile, password }, options)
}

export function loginWithCode(
  mobile: string,
  code: string,
  options?: CallOptions,
): Promise<Session> {
  return issueToken({ grant_type: 'sms_code', mobile, code }, options)
}

/** The main service's login; answers the same session as `issueToken`. */
export function appLogin(
  input: InputOf<typeof appLoginEndpoint>,
  options?: CallOptions,
): Promise<Session> {
  return callEndpoint(appLoginEndpoint, input, options)
}

export function register(input: RegisterInput, options?: CallOptions): Promise<Session> {
  return callEndpoint(registerEndpoint, input, options)
}

/** Forgot password through the sign-on service. */
export function resetPassword(
  input: InputOf<typeof resetPasswordEndpoint>,
  options?: CallOptions,
): Promise<true> {
  return callEndpoint(resetPasswordEndpoint, input, options).then((result) => result.ok)
}

/** Forgot password through the main service (SPEC's "get password"). */
export function getPassword(
  input: InputOf<typeof getPasswordEndpoint>,
  options?: CallOptions,
): Promise<true> {
  return callEndpoint(getPasswordEndpoint, input, options).then((result) => result.ok)
}

/** Every other session is revoked; the answer is this device's fresh session. */
export function changePassword(
  input: InputOf<typeof changePasswordEndpoint>,
  options?: CallOptions,
): Promise<Session> {
  return callEndpoint(changePasswordEndpoint, input, options)
}

export function deleteAccount(code: string, options?: CallOptions): Promise<true> {
  return callEndpoint(deleteAccountEndpoint, { code }, options).then((result) => result.ok)
}

export type { KeptAfterDeletion }

/** What deleting this account would leave, and until when (the retention schedule, applied). */
export function getKeptAfterDeletion(options?: CallOptions): Promise<KeptAfterDeletion[]> {
  return callEndpoint(getRetentionEndpoint, {}, options).then((answer) => answer.keptAfterDeletion)
}

export function wechatLogin(code: string, options?: CallOptions): Promise<Session> {
  return callEndpoint(wechatLoginEndpoint, { code }, options)
}

export function createQrLogin(options?: CallOptions): Promise<QrLoginTicket> {
  return callEndpoint(createQrLoginEndpoint, {}, options)
}

export function pollQrLogin(
  id: string,
  pollSecret: string,
  options?: CallOptions,
): Promise<QrLoginState> {
  return callEndpoint(pollQrLoginEndpoint, { id, pollSecret }, options)
}

export function getProfile(options?: CallOptions): Promise<UserProfile> {
  return callEndpoint(getProfileEndpoint, {}, options)
}

/** Saves the changes and keeps the signed-in profile in step with what the server answered. */
export async function modifyUser(
  input: ModifyUserInput,
  options?: CallOptions,
): Promise<UserProfile> {
  const profile = await callEndpoint(modifyUserEndpoint, input, options)
  if (useAppStore.getState().hasLogin) useAppStore.getState().setProfile(profile)
  return profile
}

/**
 * Merges the account registered with `mobile` into the signed-in one (a WeChat account without a
 * phone), with a 'merge' code to that phone and, when that account has one, its password. The
 * server signs out every other session; the profile here follows the merged account.
 */
export async function mergeUser(
  input: InputOf<typeof mergeUserEndpoint>,
  options?: CallOptions,
): Promise<UserProfile> {
  const profile = await callEndpoint(mergeUserEndpoint, input, options)
  if (useAppStore.getState().hasLogin) useAppStore.getState().setProfile(profile)
  return profile
}

/** Stores a session the server answered (login, register, password change, scan login). */
export function signIn(session: Session): void {
  useSessionStore.getState().setToken({
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: session.expires_in,
    refresh_token: session.refresh_token,
  })
  useAppStore.getState().setProfile(session.user)
}

/**
 * A failed logout must not bother the person: a token the server already forgot answers 401, and the
 * http layer would then toast 请重新登录！ and open login. Any answer but 200 is dropped silently.
 */
const quietResponse = (response: HttpResponse): false | undefined =>
  response.statusCode === 200 ? undefined : false

export interface SignOutOptions {
  /** Ask the server to revoke the token first (default). False when it is already revoked. */
  revoke?: boolean
}

/**
 * Signs out on this device: the server revokes the token when it can be reached, and the local
 * session and profile are cleared whatever it answers, so 退出登录 works offline too. Never rejects.
 */
export async function signOut({ revoke = true }: SignOutOptions = {}): Promise<void> {
  if (revoke && getAccessToken() !== null) {
    try {
      await callEndpoint(
        logoutEndpoint,
        {},
        { loading: false, quietOffline: true, hooks: { response: quietResponse } },
      )
    } catch {
      // Offline or already revoked: clearing locally is what the person asked for.
    }
  }
  useSessionStore.getState().clearToken()
  useAppStore.getState().logout()
}

/** Alias kept for the SPEC's endpoint name; same as `signOut()`. */
export const logout = signOut
