import { useState } from 'react'
import { operatorSuspendExpert } from '@contract/main/expert-profiles'
import { operatorRejectExpert } from '@contract/main/experts'
import { usePagedList } from '@/components/refresh-list'
import { type Resource, useResource } from '@/hooks/use-resource'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  type ExpertApplicationStatus,
  isConflict,
  type OperatorExpertApplication,
  operatorExpertsApi,
  type SuspendedFilter,
} from '@/services/operator-experts'
import { reasonProblem } from './reason'
import { useRowAction } from './use-operator'

/*
 * 专家认证 (the review queue and one application) and 专家管理 (suspension) in 运营后台. The server
 * decides: one decision per application counts, and the loser of two operators gets 409 with
 * EXPERT_MESSAGES.alreadyDecided, shown in its words before the application is loaded again.
 */

const PAGE_SIZE = 20

/** The queue of one status; the server orders 待审核 oldest submission first. */
export function useExpertApplications(status: ExpertApplicationStatus) {
  return usePagedList(
    async (page, pageSize) => operatorExpertsApi.applications(status, page, pageSize),
    { pageSize: PAGE_SIZE },
  )
}

export interface ExpertFilter {
  keyword: string
  suspended?: SuspendedFilter
}

export function useOperatorExperts(filter: ExpertFilter) {
  return usePagedList(
    async (page, pageSize) =>
      operatorExpertsApi.experts(
        {
          ...(filter.keyword ? { keyword: filter.keyword } : {}),
          ...(filter.suspended ? { suspended: filter.suspended } : {}),
        },
        page,
        pageSize,
      ),
    { pageSize: PAGE_SIZE },
  )
}

export const rejectReasonProblem = (reason: string) =>
  reasonProblem(operatorRejectExpert.input.shape.reason, reason)
export const suspendReasonProblem = (reason: string) =>
  reasonProblem(operatorSuspendExpert.input.shape.reason, reason)

export interface ExpertReview {
  application: Resource<OperatorExpertApplication>
  busy: boolean
  /** The server's words when another operator decided first (409); the application is reloaded. */
  conflict: string | null
  approve: () => Promise<boolean>
  reject: (reason: string) => Promise<boolean>
}

/** One application and the two decisions on it. */
export function useExpertReview(applicationId: string): ExpertReview {
  const application = useResource(`expert-application:${applicationId}`, () =>
    operatorExpertsApi.application(applicationId),
  )
  const [busy, setBusy] = useState(false)
  const [conflict, setConflict] = useState<string | null>(null)

  const decide = async (
    change: () => Promise<OperatorExpertApplication>,
    done: string,
  ): Promise<boolean> => {
    setBusy(true)
    setConflict(null)
    try {
      const decided = await change()
      application.replace(decided)
      showToast(done)
      return true
    } catch (error) {
      const message = describeError(error)
      if (isConflict(error)) {
        setConflict(message)
        await application.reload()
      }
      showToast(message)
      return false
    } finally {
      setBusy(false)
    }
  }

  const approve = async () => {
    if (application.status !== 'ready') return false
    const name = application.data.certifiedName ?? '申请人'
    const confirmed = await showModal({
      title: '通过认证',
      content: `确认已在国家卫健委网站核对无误，通过「${name}」的专家认证？通过后其姓名、医院、科室和职称将公开展示。`,
      confirmText: '通过',
    })
    if (!confirmed) return false
    return decide(() => operatorExpertsApi.approve(applicationId), '已通过')
  }

  const reject = async (reason: string) => {
    const problem = rejectReasonProblem(reason)
    if (problem) {
      showToast(problem)
      return false
    }
    const confirmed = await showModal({
      title: '驳回申请',
      content: '确认驳回？申请人会在我的消息里看到驳回原因，修改后可重新提交。',
      confirmText: '驳回',
    })
    if (!confirmed) return false
    return decide(() => operatorExpertsApi.reject(applicationId, reason.trim()), '已驳回')
  }

  return { application, busy, conflict, approve, reject }
}

/** 暂停服务 (reason required, confirmed) and 恢复服务; the list reloads after either. */
export function useSuspension(reload: () => Promise<void>) {
  const { busyId, run } = useRowAction(reload)
  const suspend = async (expertId: string, name: string, reason: string) => {
    const problem = suspendReasonProblem(reason)
    if (problem) {
      showToast(problem)
      return false
    }
    const confirmed = await showModal({
      title: '暂停服务',
      content: `确认暂停「${name}」的专家服务？暂停后其主页从找专家和搜索中消失，不能再接新的咨询，专家会看到暂停原因。`,
      confirmText: '暂停',
    })
    if (!confirmed) return false
    return run(expertId, () => operatorExpertsApi.suspend(expertId, reason.trim()), '已暂停服务')
  }
  const resume = async (expertId: string, name: string) => {
    const confirmed = await showModal({
      title: '恢复服务',
      content: `确认恢复「${name}」的专家服务？恢复后其主页重新出现在找专家和搜索中。`,
      confirmText: '恢复',
    })
    if (!confirmed) return false
    return run(expertId, () => operatorExpertsApi.resume(expertId), '已恢复服务')
  }
  return { busyId, suspend, resume }
}
