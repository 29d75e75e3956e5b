import { AiNotConfigured, type AiAnalysisProvider } from './types'

/** No AI service configured outside demo mode: 未配置AI分析服务, never an analysis by nobody. */
export const unconfiguredAiProvider: AiAnalysisProvider = {
  info: null,
  modalities: [],
  async analyse() {
    throw new AiNotConfigured()
  },
}
