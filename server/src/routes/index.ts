import type { FastifyInstance } from 'fastify'
import dicomwebRoutes from './dicomweb'
import fhirRoutes from './fhir'
import imageRoutes from './image'
import knowledgeAnalysisRoutes from './knowledge/analysis'
import mainAccountRoutes from './main/account'
import mainAppRoutes from './main/app'
import mainContentRoutes from './main/content'
import mainSearchRoutes from './main/search'
import mainDataExportRoutes from './main/data-export'
import mainFavouritesRoutes from './main/favourites'
import mainFeedbackRoutes from './main/feedback'
import mainAppsRoutes from './main/apps'
import mainOperatorRoutes from './main/operator'
import mainBookmarksRoutes from './main/bookmarks'
import mainClaimsRoutes from './main/claims'
import mainDicomUploadRoutes from './main/dicom-upload'
import mainExpertProfilesRoutes from './main/expert-profiles'
import mainExpertsRoutes from './main/experts'
import mainConsultationsRoutes from './main/consultations'
import mainHospitalRequestsRoutes from './main/hospital-requests'
import mainFamilyRoutes from './main/family'
import mainAiRoutes from './main/ai'
import mainExamRequestsRoutes from './main/exam-requests'
import mainGrantsRoutes from './main/grants'
import mainConsentRoutes from './main/consents'
import mainMessagesRoutes from './main/messages'
import mainProfileRoutes from './main/profile'
import mainQrLoginRoutes from './main/qr-login'
import mainRealtimeRoutes from './main/realtime'
import mainRecordsRoutes from './main/records'
import mainUploadRoutes from './main/upload'
import mainWalletRoutes from './main/wallet'
import mainOpinionsRoutes from './main/opinions'
import scanCodesRoutes from './scan/codes'
import reportModelTemplatesRoutes from './report-model/templates'
import ssoAuthRoutes from './sso/auth'
import ssoDirectoryRoutes from './sso/directory'
import ssoUserRoutes from './sso/user'
import healthRoutes from './system/health'

/**
 * Every route family, one plugin each (grouped by the contract's services: routes/<service>/<family>).
 * Paths come from the contract descriptors, so no prefix is given here.
 */
export default async function routes(app: FastifyInstance): Promise<void> {
  await app.register(healthRoutes)
  await app.register(mainAppRoutes)
  await app.register(ssoAuthRoutes)
  await app.register(mainAccountRoutes)
  await app.register(ssoDirectoryRoutes)
  await app.register(ssoUserRoutes)
  await app.register(mainProfileRoutes)
  await app.register(mainQrLoginRoutes)
  await app.register(mainUploadRoutes)
  await app.register(mainClaimsRoutes)
  await app.register(mainDicomUploadRoutes)
  await app.register(scanCodesRoutes)
  await app.register(fhirRoutes)
  await app.register(dicomwebRoutes)
  await app.register(mainRecordsRoutes)
  await app.register(mainBookmarksRoutes)
  await app.register(mainFamilyRoutes)
  await app.register(mainMessagesRoutes)
  await app.register(mainGrantsRoutes)
  await app.register(mainConsentRoutes)
  await app.register(imageRoutes)
  await app.register(mainContentRoutes)
  await app.register(mainSearchRoutes)
  await app.register(mainFavouritesRoutes)
  await app.register(mainDataExportRoutes)
  await app.register(mainFeedbackRoutes)
  await app.register(mainConsultationsRoutes)
  await app.register(mainWalletRoutes)
  await app.register(mainOpinionsRoutes)
  await app.register(mainExamRequestsRoutes)
  await app.register(reportModelTemplatesRoutes)
  await app.register(mainAiRoutes)
  await app.register(mainAppsRoutes)
  await app.register(mainOperatorRoutes)
  await app.register(mainExpertsRoutes)
  await app.register(mainHospitalRequestsRoutes)
  await app.register(mainExpertProfilesRoutes)
  await app.register(mainRealtimeRoutes)
  await app.register(knowledgeAnalysisRoutes)
}
