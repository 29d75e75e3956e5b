import type { FastifyInstance } from 'fastify'
import type { ConsultContext } from '../domain/consultations'

/** The consultation operations' context, from the app (providers, clock, jobs, realtime). */
export function consultContext(app: FastifyInstance): ConsultContext {
  const base = app.config.publicUrl?.replace(/\/+$/, '') ?? null
  return {
    db: app.db,
    cipher: app.personalCipher,
    now: app.now,
    payments: app.providers.payments,
    subscribe: app.providers.subscribe,
    log: app.log,
    jobs: app.jobs,
    notifyUrls: base
      ? { payment: `${base}/main/pay/wechatpay/notify`, refund: `${base}/main/pay/wechatpay/refund-notify` }
      : null,
    publish: () => undefined,
  }
}
