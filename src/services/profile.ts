import { z } from 'zod/mini'
import { envelope } from '@contract/envelope'
import {
  bindIdCard as bindIdCardEndpoint,
  bindPhone as bindPhoneEndpoint,
  getNoticeSettings as getNoticeSettingsEndpoint,
  getProfile as getProfileEndpoint,
  listBoundCards as listBoundCardsEndpoint,
  listIdCardAppeals as listIdCardAppealsEndpoint,
  appealIdCard as appealIdCardEndpoint,
  verifyIdCard as verifyIdCardEndpoint,
  type IdCardAppeal,
  saveNoticeSettings as saveNoticeSettingsEndpoint,
  sendCode as sendCodeEndpoint,
  type BoundCard,
  type NoticeSettings,
} from '@contract/main/account'
import {
  answerQrLogin as answerQrLoginEndpoint,
  getQrLoginRequest as getQrLoginRequestEndpoint,
  QR_LOGIN_PREFIX,
  scanQrLogin as scanQrLoginEndpoint,
} from '@contract/main/qr-login'
import { UPLOAD_AVATAR_PATH, UploadedFileSchema, type UploadedFile } from '@contract/main/upload'
import {
  listSecurityEvents as listSecurityEventsEndpoint,
  type AuditEvent,
} from '@contract/main/security'
import { SERVICES } from '@contract/services'
import type { UserProfile } from '@contract/sso/auth'
import { getRoleRights as getRoleRightsEndpoint } from '@contract/sso/directory'
import { getHealth } from '@contract/system/health'
import type { InputOf, OutputOf } from '@contract/endpoint'
import { showToast } from '@/platform/ui'
import { useAppStore } from '@/stores/app-store'
import {
  DRIFT_MESSAGE,
  ResponseDriftError,
  UserFacingError,
  callEndpoint,
  type CallOptions,
} from './api'
import { apiOrigin, hostOf } from './hosts'
import { http } from './http'

// Kept here too for the pages that already import it from this module.
export { describeError } from './api'

/**
 * Typed calls of the signed-in person's own account: profile, avatar, phone, ID card, notice
 * settings, role rights and the phone side of scan login. Sign-in, sign-out and modifyUser live in
 * auth.ts.
 */

export type { BoundCard, IdCardAppeal, NoticeSettings, UserProfile }
export type BindPhoneInput = InputOf<typeof bindPhoneEndpoint>
export type AppealInput = InputOf<typeof appealIdCardEndpoint>
export type SecurityEventsPage = OutputOf<typeof listSecurityEventsEndpoint>
export type { AuditEvent }
export type RoleRights = OutputOf<typeof getRoleRightsEndpoint>
export type QrLoginRequest = Omit<OutputOf<typeof scanQrLoginEndpoint>, 'ticket'>

/**
 * Reloads the signed-in person and keeps the stored profile in step, so every page shows what the
 * server says now (a name changed on another device, a card bound a moment ago).
 */
export async function refreshProfile(options?: CallOptions): Promise<UserProfile> {
  const profile = await callEndpoint(getProfileEndpoint, {}, options)
  // A sign-out while the call was on its way wins: do not sign the person back in.
  if (useAppStore.getState().hasLogin) useAppStore.getState().setProfile(profile)
  return profile
}

export function getRoleRights(options?: CallOptions): Promise<RoleRights> {
  return callEndpoint(getRoleRightsEndpoint, {}, options)
}

/** Sends a 6-digit code to the new number before binding it. */
export function sendBindCode(mobile: string): Promise<OutputOf<typeof sendCodeEndpoint>> {
  return callEndpoint(sendCodeEndpoint, { mobile, purpose: 'bind' })
}

/**
 * Binds or changes the phone, with proof of the current identity (`password` or `oldCode`, a
 * 'verify-old' code to the current phone). The server signs out every other session.
 */
export async function bindPhone(input: BindPhoneInput): Promise<UserProfile> {
  const profile = await callEndpoint(bindPhoneEndpoint, input)
  if (useAppStore.getState().hasLogin) useAppStore.getState().setProfile(profile)
  return profile
}

export function bindIdCard(realName: string, idCard: string): Promise<BoundCard> {
  return callEndpoint(bindIdCardEndpoint, { realName, idCard })
}

export function listBoundCards(options?: CallOptions): Promise<BoundCard[]> {
  return callEndpoint(listBoundCardsEndpoint, {}, options)
}

/** Asks the real-name provider about the bound card (400 未配置实名核验 while none is set up). */
export function verifyIdCard(): Promise<BoundCard> {
  return callEndpoint(verifyIdCardEndpoint, {})
}

/** An appeal when the ID number is bound to another account; answered by an operator. */
export function appealIdCard(input: AppealInput): Promise<IdCardAppeal> {
  return callEndpoint(appealIdCardEndpoint, input)
}

export function listIdCardAppeals(options?: CallOptions): Promise<IdCardAppeal[]> {
  return callEndpoint(listIdCardAppealsEndpoint, {}, options)
}

/** 登录记录: the account's own security events, newest first. */
export function listSecurityEvents(
  page: number,
  pageSize: number,
  options?: CallOptions,
): Promise<SecurityEventsPage> {
  return callEndpoint(listSecurityEventsEndpoint, { page, pageSize }, options)
}

export function getNoticeSettings(options?: CallOptions): Promise<NoticeSettings> {
  return callEndpoint(getNoticeSettingsEndpoint, {}, options)
}

export function saveNoticeSettings(change: Partial<NoticeSettings>): Promise<NoticeSettings> {
  // A switch saves in the background; a loading mask over it would block the next tap.
  return callEndpoint(saveNoticeSettingsEndpoint, change, { loading: false })
}

/**
 * Confirm tickets from scans, by request id: in memory only (never in a URL or storage), so only
 * the code path that scanned can answer. See contract/main/qr-login.ts.
 */
const qrTickets = new Map<string, string>()

/** Registers the scan of a desktop login QR and tells who is asking (the ticket stays here). */
export async function scanQrLogin(id: string): Promise<QrLoginRequest> {
  const { ticket, ...request } = await callEndpoint(scanQrLoginEndpoint, {
    id,
    source: 'scanner',
    content: `${QR_LOGIN_PREFIX}${id}`,
  })
  qrTickets.set(id, ticket)
  return request
}

export type QrLoginDetails = OutputOf<typeof getQrLoginRequestEndpoint>

/** The confirm page opened without a scan in this app (a link someone sent): nothing to confirm. */
export const QR_NOT_SCANNED = '请使用 App 内的扫一扫扫描电脑上的二维码'

/**
 * The confirm page's view of a request: where and when the desktop asked. Only for a request this
 * app's scanner registered (it holds the ticket); for an id from anywhere else (a URL) it answers
 * QR_NOT_SCANNED without asking the server, so a link can neither register nor confirm a scan.
 */
export function getQrLoginRequest(id: string): Promise<QrLoginDetails> {
  const ticket = qrTickets.get(id)
  if (!ticket) return Promise.reject(new UserFacingError(QR_NOT_SCANNED))
  return callEndpoint(getQrLoginRequestEndpoint, { id, ticket })
}

export function answerQrLogin(id: string, approve: boolean): Promise<void> {
  const ticket = qrTickets.get(id)
  if (!ticket) return Promise.reject(new UserFacingError(QR_NOT_SCANNED))
  return callEndpoint(answerQrLoginEndpoint, { id, approve, ticket }).then(() => {
    qrTickets.delete(id)
  })
}

/** The product version the server reports (the root package.json's), for 关于我们. */
export function getServerVersion(options?: CallOptions): Promise<string> {
  return callEndpoint(getHealth, {}, options).then((health) => health.version)
}

/**
 * An uploaded file's address as an <Image> can load it: the server answers paths on its own
 * origin, which the mini-program (no page origin) must be told.
 */
export function fileUrl(url: string): string {
  return url.startsWith('/') && !url.startsWith('//') ? `${apiOrigin()}${url}` : url
}

const uploadEnvelope = envelope(UploadedFileSchema)

/**
 * Sends a cropped avatar (a temp file path on weapp, a blob or data URL on H5) as the multipart
 * field `file`. Uploads do not go through callEndpoint (their input is a file, not JSON), so the
 * answer is checked against the contract here.
 */
export async function uploadAvatar(filePath: string): Promise<UploadedFile> {
  const body = await http.upload<unknown>({
    baseUrl: hostOf('main'),
    // The contract gives the path on the reference server; the main host already carries /main.
    url: UPLOAD_AVATAR_PATH.slice(SERVICES.main.length),
    filePath,
    name: 'file',
  })
  const parsed = z.safeParse(uploadEnvelope, body)
  if (!parsed.success) {
    showToast(DRIFT_MESSAGE)
    throw new ResponseDriftError(`POST ${UPLOAD_AVATAR_PATH}`, parsed.error.issues)
  }
  return parsed.data.data
}

/**
 * What 我的, 设置 and 个人信息 say of the ID card: 已实名 only when a real-name provider verified it
 * (the server's word), 已绑定 for a card that is merely stored, else 未绑定.
 */
export function idCardStatusText(profile: UserProfile | null): '已实名' | '已绑定' | '未绑定' {
  const status = profile?.idCardStatus ?? (profile?.realNameVerified ? 'verified' : 'none')
  if (status === 'verified') return '已实名'
  return status === 'bound' ? '已绑定' : '未绑定'
}
