/**
 * The envelope's `reason`: a stable code for a refusal the app's (or the server's) code must tell
 * apart from others, because it acts on it (goes back to 本人, shows 授权已失效 instead of 重试,
 * offers 申诉). The Chinese `error` and `message` are for people and may be reworded at any time;
 * code never compares them. A refusal nobody branches on has no reason (null). See README.md.
 *
 * Dotted `area.what`, lower case with hyphens. A reason, once shipped, keeps its spelling.
 */
export const REASONS = {
  /** 403: the caller no longer manages the chosen 就诊人 (FAMILY_MESSAGES.notManaged). */
  familyNotManaged: 'family.not-managed',
  /** 403: the grant has ended: revoked, expired, used up (GRANT_MESSAGES.ended). */
  grantEnded: 'grant.ended',
  /** 403/404: the share link, or this visitor's session on it, is not (or no longer) valid. */
  grantLinkInvalid: 'grant.link-invalid',
  /** 429: password login locked after wrong passwords (the audit log's 'lock' event). */
  loginLocked: 'login.locked',
  /** 401: the refresh token was just exchanged by another request of its owner (auth.ts). */
  refreshRaced: 'session.refresh-raced',
  /** 400: the new phone number belongs to another account (binding a phone; merge instead). */
  mobileInUse: 'account.mobile-in-use',
  /** 400: the ID card is bound to another account (binding a card; 申诉 instead). */
  idCardTaken: 'id-card.taken',
  /** 507: the server's storage is full (nothing the caller did; an operator must free space). */
  storageFull: 'storage.full',
  /** 400: applying for expert certification without a bound ID card (the app links to 身份证绑定). */
  expertIdCardMissing: 'expert.id-card-missing',
} as const

export type Reason = (typeof REASONS)[keyof typeof REASONS]
