import { TransferNotConfigured, type TransferProvider } from './types'

/**
 * No 商家转账 configured outside demo mode: every call throws TransferNotConfigured (提现未配置), so a
 * withdrawal is refused before anything is held instead of being "paid" by nobody.
 */
export const unconfiguredTransferProvider: TransferProvider = {
  name: 'unconfigured',
  configured: false,
  createTransfer: notConfigured,
  queryTransfer: notConfigured,
  cancelTransfer: notConfigured,
  confirmParams: () => null,
  parseTransferNotification: notConfigured,
  dailyStatement: notConfigured,
}

async function notConfigured(): Promise<never> {
  throw new TransferNotConfigured()
}
