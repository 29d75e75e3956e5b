import type { FastifyInstance } from 'fastify'
import type { ConsultContext } from './domain/consultations'

/**
 * The consultation operations' context, from the app (providers, clock, jobs, realtime): made per
 * request by the routes and per job by the consultation job kinds (composition, above all layers).
 */
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
    // Pointers only (ids and a cursor): the screens fetch the contents with their own token.
    publish: (userIds, signal) => {
      const event = signal.kind === 'consultation.message' ? { ...signal, cursor: String(signal.cursor) } : signal
      void app.realtime.publish(userIds, event)
    },
  }
}
