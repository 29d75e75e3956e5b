import type { FastifyBaseLogger } from 'fastify'

/*
 * WeChat subscribe messages (订阅消息): the mini-program's notices that a grant was first viewed, that
 * someone shared records with the person, that a hospital report arrived or changed, and an
 * operator's decision on the person's expert certification.
 * Sending one needs the mini-program's AppID/secret, an access token and a template the account
 * registered; none of that exists here, so the only adapter answers 未配置 and the app's own
 * message list (domain/messages.ts) carries the notice. A real adapter implements the interface.
 */

export const SUBSCRIBE_NOT_CONFIGURED = '未配置'

export interface SubscribeNotice {
  /** Whom to tell (our user id; the adapter maps it to the person's openid). */
  userId: string
  /** Which template: one per event kind. */
  template:
    | 'grant-viewed'
    | 'grant-received'
    | 'report-ready'
    | 'expert-decision'
    | 'expert-service'
    /** A consultation's state changed (new order, accepted, answered, refunded, complaint decided). */
    | 'consult-update'
    /** An expert's withdrawal ended (已到账, 失败 — 已退回余额, 审核未通过, 已取消). */
    | 'wallet-update'
  /** Template fields, already without personal data beyond what the person owns. */
  data: Record<string, string>
}

export type SubscribeResult = { sent: true } | { sent: false; reason: string }

export interface SubscribeMessageProvider {
  send(notice: SubscribeNotice): Promise<SubscribeResult>
}

/** Says 未配置 (and logs it once per call, without the person's data). */
export function unconfiguredSubscribeMessages(log: FastifyBaseLogger): SubscribeMessageProvider {
  return {
    async send(notice) {
      log.info({ template: notice.template }, '微信订阅消息未配置，未发送')
      return { sent: false, reason: SUBSCRIBE_NOT_CONFIGURED }
    },
  }
}
