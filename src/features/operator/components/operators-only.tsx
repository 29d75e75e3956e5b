import type { ReactNode } from 'react'
import { PageState } from '@/components/page-state'
import { back } from '@/services/navigate'
import { OPERATORS_ONLY, useOwnProfile } from '../hooks/use-operator'

/**
 * Every operator page: someone who is not an operator by their profile is told so
 * (仅运营人员可以使用此功能) with 返回, no 重试 and no operator call (a refused call is a console error
 * in the browser). The server still refuses the operator calls to anyone else.
 */
export function OperatorsOnly({ children }: { children: ReactNode }) {
  const own = useOwnProfile()
  if (own.status === 'error') {
    return <PageState status="error" message={own.message} onRetry={own.reload} />
  }
  if (own.status === 'loading') return <PageState status="loading" />
  if (own.data.role !== 'operator') {
    return (
      <PageState
        status="empty"
        message={OPERATORS_ONLY}
        action={{ text: '返回', onClick: () => void back('user') }}
      />
    )
  }
  return <>{children}</>
}
