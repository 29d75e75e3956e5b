import type { z } from 'zod/mini'
import type { InputOf } from '@contract/endpoint'
import {
  type ConsultState,
  decideComplaint as decideComplaintEndpoint,
  getMoneySettings as getMoneySettingsEndpoint,
  operatorListConsultations as operatorListEndpoint,
  type OperatorConsultSchema,
  runLedgerCheck as runLedgerCheckEndpoint,
  updateMoneySettings as updateMoneySettingsEndpoint,
} from '@contract/main/consultations'
import { callEndpoint } from './api'

/*
 * 运营后台's 咨询订单 (contract/main/consultations.ts, the operators' calls), H5 only like every
 * operator call: consultations by state and 投诉, deciding a complaint, the platform's share and the
 * ledger check. Amounts stay integer fen.
 */

export type OperatorConsult = z.infer<typeof OperatorConsultSchema>
export type OperatorConsultPage = Awaited<ReturnType<typeof operatorConsultationsApi.list>>
export type MoneySettings = Awaited<ReturnType<typeof operatorConsultationsApi.money>>
export type LedgerCheck = Awaited<ReturnType<typeof operatorConsultationsApi.checkLedger>>
export type DecideComplaintInput = InputOf<typeof decideComplaintEndpoint>

const quiet = { loading: false } as const

export const operatorConsultationsApi = {
  /** One state, or only those with a 投诉 waiting (`disputed`), newest first. */
  list: (filter: { state?: ConsultState; disputed?: boolean }, page: number, pageSize: number) =>
    callEndpoint(
      operatorListEndpoint,
      {
        ...(filter.state ? { state: filter.state } : {}),
        ...(filter.disputed ? { disputed: '1' as const } : {}),
        page,
        pageSize,
      },
      quiet,
    ),
  decide: (input: DecideComplaintInput) => callEndpoint(decideComplaintEndpoint, input),
  money: () => callEndpoint(getMoneySettingsEndpoint, {}, quiet),
  updateShare: (platformShareBp: number) =>
    callEndpoint(updateMoneySettingsEndpoint, { platformShareBp }),
  checkLedger: () => callEndpoint(runLedgerCheckEndpoint, {}),
}
