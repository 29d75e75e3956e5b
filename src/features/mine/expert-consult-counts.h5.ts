/** H5 variant of expert-consult-counts.ts: the consultations contract loads after the first screen. */
export function loadExpertConsultCounts(): Promise<{ waiting: number; unread: number }> {
  return import('@/services/consultations').then((consultations) =>
    consultations.countExpertConsultations(),
  )
}
