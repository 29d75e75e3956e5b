import {
  CONSENT_RULES,
  CONSENT_TEXT_VERSIONS,
  listConsents as listConsentsEndpoint,
  recordConsent as recordConsentEndpoint,
  withdrawConsent as withdrawConsentEndpoint,
  type ConsentGroup,
  type ConsentItem,
  type ConsentPurpose,
} from '@contract/main/consents'
import type { InputOf, OutputOf } from '@contract/endpoint'
import { callEndpoint } from './api'

/**
 * 隐私与授权 (contract/main/consents.ts): the person's consent ledger, 撤回, and the consents the app
 * itself asks for (a policy accepted again, subscribe messages).
 */

export type { ConsentGroup, ConsentItem, ConsentPurpose }
export { CONSENT_RULES, CONSENT_TEXT_VERSIONS }
export type WithdrawnConsent = OutputOf<typeof withdrawConsentEndpoint>

export function listConsents(): Promise<OutputOf<typeof listConsentsEndpoint>> {
  // The page draws its own loading state.
  return callEndpoint(listConsentsEndpoint, {}, { loading: false })
}

export function withdrawConsent(
  purpose: ConsentPurpose,
  targetId: string | null,
): Promise<WithdrawnConsent> {
  return callEndpoint(withdrawConsentEndpoint, { purpose, targetId })
}

export function recordConsent(
  input: InputOf<typeof recordConsentEndpoint>,
): Promise<OutputOf<typeof recordConsentEndpoint>> {
  return callEndpoint(recordConsentEndpoint, input, { loading: false })
}
