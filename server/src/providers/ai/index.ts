import type { Config } from '../../config'
import { demoAiProvider } from './demo'
import type { AiAnalysisProvider } from './types'
import { unconfiguredAiProvider } from './unconfigured'

export * from './types'
export {
  analyseLungs,
  CHEST_CT_TEMPLATE,
  DEMO_AI_NOTICE,
  DEMO_AI_PROVIDER,
  DEMO_AI_REASONS,
  demoAiProvider,
  MIN_SLICES,
} from './demo'
export { unconfiguredAiProvider } from './unconfigured'

/**
 * AI_PROVIDER=demo: the 演示算法; AI_PROVIDER=none: 未配置AI分析服务. Unset: the 演示算法 in demo mode,
 * 未配置 otherwise. A vendor's service is a new value with its adapter (README.md).
 */
export function createAiProvider(
  config: Pick<Config, 'aiProvider' | 'demoMode'>,
): AiAnalysisProvider {
  const choice = config.aiProvider ?? (config.demoMode ? 'demo' : 'none')
  return choice === 'demo' ? demoAiProvider : unconfiguredAiProvider
}
