import { usePagedList, type PagedList } from '@/components/refresh-list'
import { listSecurityEvents, type AuditEvent } from '@/services/profile'

/** 登录记录: the account's own security events, newest first, page by page. */
export function useSecurityLog(): PagedList<AuditEvent> {
  return usePagedList(async (page, pageSize) => {
    // The list draws its own loading state; a mask over it would block pull-to-refresh.
    const answer = await listSecurityEvents(page, pageSize, { loading: false })
    return { items: answer.items, total: answer.total }
  })
}
