import { useResource } from '@/hooks/use-resource'
import { describeError } from '@/services/api'
import {
  CONSULT_SERVICES,
  type ConsultQuote,
  type ConsultService,
  getConsultQuote,
} from '@/services/consultations'

/** One service's card: its quote, or why it cannot be quoted (未开通 answers as an error too). */
export type ServiceQuote =
  | { service: ConsultService; status: 'ready'; quote: ConsultQuote }
  | { service: ConsultService; status: 'error'; message: string }

export interface ConsultModeModel {
  status: 'loading' | 'ready' | 'error'
  message: string
  quotes: ServiceQuote[]
  retry: () => void
}

/** 选择会诊方式: both services' quotes for one expert, asked together. */
export function useConsultMode(expertId: string): ConsultModeModel {
  const resource = useResource(expertId === '' ? null : expertId, async () => {
    const answers = await Promise.allSettled(
      CONSULT_SERVICES.map((service) => getConsultQuote({ expertId, service })),
    )
    // Nothing at all answered: the page's error (the network), not two cards' errors.
    if (answers.every((answer) => answer.status === 'rejected')) {
      throw (answers[0] as PromiseRejectedResult).reason
    }
    return answers.map((answer, index): ServiceQuote => {
      const service = CONSULT_SERVICES[index]
      return answer.status === 'fulfilled'
        ? { service, status: 'ready', quote: answer.value }
        : { service, status: 'error', message: describeError(answer.reason, '暂不可咨询') }
    })
  })
  if (resource.status === 'ready') {
    return { status: 'ready', message: '', quotes: resource.data, retry: () => undefined }
  }
  if (resource.status === 'error') {
    return {
      status: 'error',
      message: resource.message,
      quotes: [],
      retry: () => void resource.reload(),
    }
  }
  return { status: 'loading', message: '', quotes: [], retry: () => undefined }
}
