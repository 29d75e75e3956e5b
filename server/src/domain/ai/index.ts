export {
  AI_JOB_FAILED,
  AI_JOB_KIND,
  type AiContext,
  aiService,
  analysisView,
  applyAnalysis,
  expertDrafts,
  forgetAiAnalysesOf,
} from './analyses'
export { AI_PROVIDER_CHANGED, aiAnalysisJob } from './job'
export { loadStudy } from './study'
