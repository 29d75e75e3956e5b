import { operatorDeclineHospitalRequest } from '@contract/main/hospital-requests'
import { usePagedList } from '@/components/refresh-list'
import { showModal, showToast } from '@/platform/ui'
import { type DirectoryHospital, pageDirectoryHospitals } from '@/services/hospital-directory'
import {
  type HospitalRequestStatus,
  type OperatorHospitalRequest,
  operatorHospitalRequestsApi,
} from '@/services/operator-hospital-requests'
import { reasonProblem } from './reason'
import { useRowAction } from './use-operator'

/*
 * 医院申请: the queue of one status and the two ways to settle a request. The server settles each
 * once: the loser of two operators gets 409 (HOSPITAL_REQUEST_MESSAGES.alreadyDecided), shown in its
 * words before the queue is loaded again.
 */

const PAGE_SIZE = 20

export function useHospitalRequests(status: HospitalRequestStatus) {
  return usePagedList(
    async (page, pageSize) => operatorHospitalRequestsApi.list(status, page, pageSize),
    { pageSize: PAGE_SIZE },
  )
}

export const declineReasonProblem = (reason: string) =>
  reasonProblem(operatorDeclineHospitalRequest.input.shape.reason, reason)

/** The directory's hospitals by name (the same search 选择医院 uses), first page only. */
export async function searchDirectory(keyword: string): Promise<DirectoryHospital[]> {
  const answer = await pageDirectoryHospitals(keyword, 1, 10)
  return answer.items
}

export interface Settling {
  busyId: string | null
  resolve: (request: OperatorHospitalRequest, hospital: DirectoryHospital) => Promise<boolean>
  decline: (request: OperatorHospitalRequest, reason: string) => Promise<boolean>
}

/** 添加为… and 不予添加, each confirmed; the queue reloads after either, and after a 409. */
export function useSettleHospitalRequest(reload: () => Promise<void>): Settling {
  const { busyId, run } = useRowAction(reload)
  const resolve = async (request: OperatorHospitalRequest, hospital: DirectoryHospital) => {
    const waiting = request.waitingApplications
    const confirmed = await showModal({
      title: '添加医院',
      content: `确认「${request.name}」就是目录中的「${hospital.name}」？${
        waiting > 0 ? `等待它的 ${waiting} 份认证申请会随之更新，` : ''
      }申请人会收到通知。`,
      confirmText: '确认添加',
    })
    if (!confirmed) return false
    return run(
      request.id,
      () => operatorHospitalRequestsApi.resolve(request.id, hospital.id),
      '已添加',
    )
  }
  const decline = async (request: OperatorHospitalRequest, reason: string) => {
    const problem = declineReasonProblem(reason)
    if (problem) {
      showToast(problem)
      return false
    }
    const confirmed = await showModal({
      title: '不予添加',
      content: `确认不添加「${request.name}」？申请人会在我的消息里看到原因，并需要重新选择医院。`,
      confirmText: '不予添加',
    })
    if (!confirmed) return false
    return run(
      request.id,
      () => operatorHospitalRequestsApi.decline(request.id, reason.trim()),
      '已处理',
    )
  }
  return { busyId, resolve, decline }
}
