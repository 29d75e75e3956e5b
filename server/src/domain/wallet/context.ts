import type { FastifyBaseLogger } from 'fastify'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { SubscribeMessageProvider } from '../../providers/subscribe-message'
import type { TransferProvider } from '../../providers/transfers/types'

/** What the wallet's operations need from the app: one object, made per request or job. */
export interface WalletContext {
  db: DB
  /** Reads the expert's certified real name (the bound ID card) for the payout and the report. */
  cipher: FieldCipher
  now: () => Date
  transfers: TransferProvider
  log: FastifyBaseLogger
  /** WeChat subscribe messages for a withdrawal's end, after the 我的消息 entry (未配置 until set up). */
  subscribe: SubscribeMessageProvider
  /** Where the provider posts state notifications (PUBLIC_URL + the notify route); null: none. */
  notifyUrl: string | null
}
