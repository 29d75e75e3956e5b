import type { InputOf, OutputOf } from '@contract/endpoint'
import {
  listDataExports as listEndpoint,
  requestDataExport as requestEndpoint,
} from '@contract/main/data-export'
import { callEndpoint, type CallOptions } from './api'
import { sendOwnCode } from './auth'

/*
 * 导出我的数据 (contract/main/data-export.ts): whose data the account may export and its requests,
 * and a request with the login password or a code to the account's own phone. The download link
 * is never answered here: it goes by SMS only.
 */

export * from '@contract/main/data-export'

export type DataExportOverview = OutputOf<typeof listEndpoint>

export function listDataExports(options?: CallOptions): Promise<DataExportOverview> {
  return callEndpoint(listEndpoint, {}, options)
}

export function requestDataExport(
  input: InputOf<typeof requestEndpoint>,
  options?: CallOptions,
): Promise<OutputOf<typeof requestEndpoint>> {
  return callEndpoint(requestEndpoint, input, options)
}

/** The re-authentication code, to the account's own phone (`verify-old`, as 提现 does). */
export const sendExportCode = () => sendOwnCode('verify-old', { loading: false })
