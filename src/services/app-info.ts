import {
  getAgreement as getAgreementEndpoint,
  getPolicyVersion as getPolicyVersionEndpoint,
  type Agreement,
  type AgreementKind,
  type PolicyVersion,
} from '@contract/main/app'
import { callEndpoint, type CallOptions } from './api'

/** The privacy-policy version the server publishes for one product (SPEC section 1). */
export function getPolicyVersion(
  softwareName: string,
  options?: CallOptions,
): Promise<PolicyVersion> {
  return callEndpoint(getPolicyVersionEndpoint, { softwareName }, options)
}

/** An agreement's full text: privacy policy, user agreement or expert agreement. */
export function getAgreement(
  kind: AgreementKind,
  softwareName?: string,
  options?: CallOptions,
): Promise<Agreement> {
  return callEndpoint(
    getAgreementEndpoint,
    softwareName === undefined ? { kind } : { kind, softwareName },
    options,
  )
}
