import { countExpertConsultations } from '@/services/consultations'

/**
 * 患者咨询's figures for the Mine tab badge: new questions waiting to be accepted and unread
 * messages in the expert's consultations. The H5 build swaps in expert-consult-counts.h5.ts, which
 * loads the consultations contract after the first screen.
 */
export function loadExpertConsultCounts(): Promise<{ waiting: number; unread: number }> {
  return countExpertConsultations()
}
