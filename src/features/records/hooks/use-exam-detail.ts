import { getExamDetail, type ExamDetail } from '@/services/records'

export type { ExamDetail }
import { useResource, type Resource } from '@/hooks/use-resource'

/** 影像详情: one exam with its series and report summary. */
export function useExamDetail(examId: string): Resource<ExamDetail> {
  return useResource(examId, () => getExamDetail(examId), {
    errorMessage: '加载失败，请检查网络后重试',
  })
}
