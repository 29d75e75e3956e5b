/**
 * Identity core: accounts, passwords, sessions, SMS codes and their limits. Plain functions taking the
 * Kysely handle; the profile side (ID cards, phone binding, deletion, QR login, ...) builds on these.
 */
export { maskMobile, maskName } from '../../masking'
export { idCardCheckChar, idCardNumberProblem, maskIdNumber } from './id-card-number'
export {
  burnPasswordCheck,
  hashPassword,
  hashSecret,
  randomDigits,
  randomToken,
  sameHash,
  verifyPassword,
} from './secrets'
export {
  createUser,
  findUserById,
  findUserByMobile,
  findUserByWechatOpenid,
  idCardStatus,
  isRealNameVerified,
  isUniqueViolation,
  loadProfile,
  MOBILE_TAKEN,
  toProfile,
  toRole,
  type NewUser,
  type ProfileExtras,
  type User,
} from './users'
export {
  ACCESS_TTL_MS,
  createSession,
  findSessionByAccessToken,
  REFRESH_GRACE_MS,
  REFRESH_RACED,
  REFRESH_REUSED,
  REFRESH_TTL_MS,
  refreshSession,
  revokeFamily,
  revokeSession,
  revokeUserSessions,
  SESSION_EXPIRED,
  SESSION_MAX_LIFETIME_MS,
  type AuthenticatedSession,
  type StoredIdCard,
} from './sessions'
export {
  consumeCodeTicket,
  consumeSmsCode,
  assertPublicPurpose,
  issueSmsCode,
  OWN_PHONE_ONLY,
  OWN_PHONE_PURPOSES,
  SMS_LIMITS,
  SMS_NOT_CONFIGURED,
  smsNotConfigured,
  TICKET_TTL_MS,
  validateSmsCode,
  type CodeTicket,
  type IssuedSmsCode,
  type SmsProvider,
} from './sms'
export {
  BAD_CREDENTIALS,
  changePassword,
  isLoginLocked,
  LOGIN_LOCK,
  LOGIN_LOCKED_TEXT,
  LoginLockedError,
  loginWithPassword,
  loginWithSmsCode,
  loginWithWechat,
  MOBILE_UNKNOWN,
  registerWithSmsCode,
  REGISTRATION_CONSENTS,
  resetPasswordWithSmsCode,
  type WechatAuth,
  type WechatIdentity,
} from './accounts'
export { DAY, describeWait, HOUR, MINUTE, SECOND } from './time'
export { DEMO_ACCOUNTS, demoAccountsStep } from './demo'
export {
  keyedHash,
  openWithSecret,
  sealWithSecret,
  setPasswordHashCost,
  setSecretKey,
} from './secrets'
export { outboxMobileKey } from './sms'
export { isoAfter } from './time'
