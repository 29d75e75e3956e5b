import type { ReactElement } from 'react'
import { PageState } from '@/components/page-state'
import type { Shared } from '../hooks/use-shared'
import { ShareEnded } from './share-ended'

/** Loading, error with 重试, or the full-page 授权已失效; `ready` draws the loaded page. */
export function SharedState<T>({
  shared,
  ready,
}: {
  shared: Shared<T>
  ready: (data: T) => ReactElement
}) {
  if (shared.status === 'loading') return <PageState status="loading" />
  if (shared.status === 'ended') return <ShareEnded />
  if (shared.status === 'error') {
    return <PageState status="error" message={shared.message} onRetry={shared.reload} />
  }
  return ready(shared.data)
}
