import { useCallback } from 'react'
import type { Agreement, AgreementKind } from '@contract/main/app'
import { useResource } from '@/hooks/use-resource'
import { currentSoftwareName } from '@/platform/runtime'
import { getAgreement } from '@/services/app-info'
import { isCancelled } from '@/services/http'

export type AgreementState =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; agreement: Agreement }

export const AGREEMENT_TITLES: Record<AgreementKind, string> = {
  privacy: '隐私政策',
  user: '用户协议',
  expert: '专家协议',
}

export interface AgreementView {
  state: AgreementState
  retry: () => void
}

/** One agreement's text from the server, as the privacy-policy page loads its own. */
export function useAgreement(kind: AgreementKind): AgreementView {
  const resource = useResource(kind, () => getAgreement(kind, currentSoftwareName()), {
    ignoreError: isCancelled,
  })
  const { reload } = resource
  const retry = useCallback(() => void reload(), [reload])
  const state: AgreementState =
    resource.status === 'ready'
      ? { status: 'ready', agreement: resource.data }
      : resource.status === 'error'
        ? { status: 'error', message: `${AGREEMENT_TITLES[kind]}加载失败，请检查网络后重试` }
        : { status: 'loading' }
  return { state, retry }
}
