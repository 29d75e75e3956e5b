import type { ConsultDetail } from '@/services/consultations'
import type { GrantRecord } from '@/services/grants'
import { navigate } from '@/services/navigate'

/**
 * A record card opens the viewer the way its reader may see it: the expert through the
 * consultation's grant (the sharing pages: watermark, masking, the one access check), the patient
 * (the owner, or the family manager who asked) through their own record pages.
 */
export function openRecord(detail: ConsultDetail, record: GrantRecord): Promise<boolean> {
  if (detail.role === 'expert') {
    return record.kind === 'exam'
      ? navigate('shareExam', { grantId: detail.grant.id, examId: record.examId })
      : navigate('shareReport', { grantId: detail.grant.id, reportId: record.id })
  }
  return record.kind === 'exam'
    ? navigate('imageDetail', { id: record.examId })
    : navigate('reportDetail', { id: record.id })
}
