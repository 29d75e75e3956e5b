import { PageState } from '@/components/page-state'
import type { Resource } from '@/hooks/use-resource'
import { HttpError } from '@/services/http'
import { WALLET_MESSAGES, type WalletOverview } from '@/services/wallet'

/**
 * The overview's loading or error state, or null once it is ready. Someone who is not a certified
 * expert is refused (403): that is no error to retry, so it says 认证专家才有钱包.
 */
export function OverviewState({ overview }: { overview: Resource<WalletOverview> }) {
  if (overview.status === 'loading') return <PageState status="loading" />
  if (overview.status !== 'error') return null
  if (overview.error instanceof HttpError && overview.error.statusCode === 403) {
    return <PageState status="empty" message={WALLET_MESSAGES.notExpert} />
  }
  return <PageState status="error" message={overview.message} onRetry={overview.restart} />
}
