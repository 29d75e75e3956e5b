import type { ConsultRecordParams } from '@/services/navigate'

/** The record a page was handed (咨询专家 on 影像详情 / 报告详情), only the keys present. */
export function recordParams(params: Partial<Record<string, string>>): ConsultRecordParams {
  return {
    ...(params.examId ? { examId: params.examId } : {}),
    ...(params.reportId ? { reportId: params.reportId } : {}),
    ...(params.personId ? { personId: params.personId } : {}),
  }
}
