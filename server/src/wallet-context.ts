import type { FastifyInstance } from 'fastify'
import type { WalletContext } from './domain/wallet'

/** Where the transfer provider posts its state notifications (the route in routes/main/wallet.ts). */
export const TRANSFER_NOTIFY_PATH = '/main/pay/wechatpay/transfer-notify'

/**
 * The wallet operations' context, from the app (providers, clock, jobs): made per request by the
 * routes and per job by the wallet's job kind (composition, above all layers).
 */
export function walletContext(app: FastifyInstance): WalletContext {
  const base = app.config.publicUrl?.replace(/\/+$/, '') ?? null
  return {
    db: app.db,
    cipher: app.personalCipher,
    now: app.now,
    transfers: app.providers.transfers,
    log: app.log,
    subscribe: app.providers.subscribe,
    notifyUrl: base ? `${base}${TRANSFER_NOTIFY_PATH}` : null,
  }
}
