import { useDidShow } from '@tarojs/taro'
import { useRef, useState } from 'react'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  cancelGrant,
  listGrants,
  listRecordViews,
  type Grant,
  type GrantView,
} from '@/services/grants'
import { useResource } from '@/hooks/use-resource'

export interface GrantListFilter {
  /** Only the grants of this exam (or its report), with its 谁看过. */
  examId?: string
  /** A family member's grants. */
  personId?: string
}

export interface GrantListData {
  grants: Grant[]
  /** 谁看过 of the exam, when the list is narrowed to one. */
  recordViews: GrantView[] | null
}

/**
 * 授权记录: the grants (and for one exam its views), loaded again when the person comes back; 撤销
 * after a confirm, replacing the grant in place with the server's answer (its new status).
 */
export function useGrantList(filter: GrantListFilter) {
  const { examId, personId } = filter
  const list = useResource<GrantListData>(`${examId ?? ''}|${personId ?? ''}`, async () => {
    const [grants, recordViews] = await Promise.all([
      listGrants({ examId, personId }),
      examId ? listRecordViews(examId) : Promise.resolve(null),
    ])
    return { grants, recordViews }
  })
  const [cancelling, setCancelling] = useState<string | null>(null)

  const shown = useRef(false)
  useDidShow(() => {
    if (shown.current) list.reload()
    shown.current = true
  })

  const cancel = async (grant: Grant) => {
    const confirmed = await showModal({
      title: '撤销授权',
      content:
        grant.audience === 'link'
          ? '撤销后链接立即失效，正在查看的人也将无法继续查看。确定撤销？'
          : '撤销后对方立即无法再查看这些记录。确定撤销？',
      confirmText: '撤销',
    })
    if (!confirmed) return
    setCancelling(grant.id)
    try {
      const updated = await cancelGrant(grant.id)
      if (list.status === 'ready') {
        list.replace({
          ...list.data,
          grants: list.data.grants.map((one) => (one.id === updated.id ? updated : one)),
        })
      }
      showToast('已撤销')
    } catch (error) {
      showToast(describeError(error, '撤销失败，请稍后重试'))
    } finally {
      setCancelling(null)
    }
  }

  return { list, cancelling, cancel }
}
