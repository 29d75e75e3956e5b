import type { FastifyInstance } from 'fastify'
import { consultContext } from './consult-context'
import type { DataExportJobContext } from './domain/data-export'
import { opinionPdf, readOpinion } from './domain/opinions'

/**
 * What the data export's job needs from the app (composition, above all layers): the SMS notices
 * gateway, the CJK font, and a signed opinion's PDF read under the consultations' own rules.
 */
export function dataExportContext(app: FastifyInstance): DataExportJobContext {
  const fontPath = app.config.pdfFont
  const base = app.config.publicUrl?.replace(/\/+$/, '') ?? null
  return {
    notifier: app.providers.smsNotices,
    fontPath,
    opinionPdf: fontPath
      ? async (patientUserId, opinionId) => {
          const opinion = await readOpinion(consultContext(app), patientUserId, opinionId)
          return opinionPdf(opinion, {
            fontPath,
            verifyUrl: base ? `${base}/pages/report/report?verify=${opinion.verifyCode}` : null,
          })
        }
      : null,
  }
}
