import { useRef, useState } from 'react'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { isCancelled } from '@/services/http'
import {
  hideReport,
  setReportArchived,
  setReportPrivacy,
  type ReportDetail,
} from '@/services/records'

export type ReportAction = 'privacy' | 'archive' | 'delete'

export interface ReportActions {
  busy: ReportAction | null
  togglePrivacy: () => void
  toggleArchived: () => void
  remove: () => void
}

export const DELETE_CONFIRM = {
  title: '删除报告',
  content: '删除后，该报告不再出现在“我的报告”中；医院的记录和影像不受影响。确定删除吗？',
  confirmText: '删除',
} as const

/**
 * 设为隐私 / 加入个人档案 / 删除 on a report. Each answer updates the page in place (`apply`), a
 * deletion asks first and then leaves (`onDeleted`). One action at a time.
 */
export function useReportActions(
  report: ReportDetail,
  ticket: string | null,
  apply: (report: ReportDetail) => void,
  onDeleted: () => void,
): ReportActions {
  const [busy, setBusy] = useState<ReportAction | null>(null)
  const running = useRef(false)

  const run = (action: ReportAction, task: () => Promise<void>) => {
    if (running.current) return
    running.current = true
    setBusy(action)
    task()
      .catch((error: unknown) => {
        // The http wrapper has toasted a server refusal already; say the rest in words.
        if (!isCancelled(error)) showToast(describeError(error))
      })
      .finally(() => {
        running.current = false
        setBusy(null)
      })
  }

  return {
    busy,
    togglePrivacy: () =>
      run('privacy', async () => {
        const makePrivate = !report.private
        const brief = await setReportPrivacy(report.id, makePrivate, ticket ?? undefined)
        apply({ ...report, private: brief.private })
        showToast(brief.private ? '已设为隐私，查看前需验证身份' : '已取消隐私')
      }),
    toggleArchived: () =>
      run('archive', async () => {
        const answer = await setReportArchived(report.id, !report.archived)
        apply({ ...report, archived: answer.archived })
        showToast(answer.archived ? '已加入个人档案' : '已移出个人档案')
      }),
    remove: () =>
      run('delete', async () => {
        const sure = await showModal({ ...DELETE_CONFIRM, cancelText: '取消' })
        if (!sure) return
        await hideReport(report.id)
        showToast('已删除')
        onDeleted()
      }),
  }
}
