import { timeFormat } from '@/utils/time'
import type { Agreement } from '@contract/main/app'
import { HOME_PAGE, leaveApp, type BlockReason, type LaunchDeps } from './launch-checks'

export type PrivacyPageMode =
  | { kind: 'read' }
  | { kind: 'consent'; version: string | null }
  | { kind: 'blocked'; reason: BlockReason }

/** Reads the page's query: `?consent=1&version=…` asks for consent, `?blocked=…` blocks. */
export function modeFromParams(params: Record<string, string | undefined>): PrivacyPageMode {
  if (params.blocked === 'proxy' || params.blocked === 'refused') {
    return { kind: 'blocked', reason: params.blocked }
  }
  if (params.consent === '1') {
    const version = params.version || null
    return { kind: 'consent', version }
  }
  return { kind: 'read' }
}

export const BLOCKED_MESSAGES: Record<BlockReason, string> = {
  proxy: '检测到您的设备正在使用网络代理，为保障数据安全，无法继续使用。',
  refused: '您未同意隐私政策，无法继续使用本服务。如需使用，请重新阅读并同意隐私政策。',
}

/** Plain text with blank-line separated paragraphs (contract/main/app.ts), without empty ones. */
export function splitParagraphs(content: string): string[] {
  return content
    .replace(/\r\n?/g, '\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== '')
}

/** `2024-06-01T08:00:00.000Z` → `2024-06-01` in the user's time zone; unparsable text as is. */
export function formatUpdatedAt(value: string): string {
  return timeFormat(value, 'yyyy-mm-dd') || value
}

export interface ConsentDeps extends Pick<LaunchDeps, 'exitApp' | 'reLaunch'> {
  acceptVersion: (version: string) => void
  switchTab: (url: string) => Promise<void> | void
}

/**
 * 同意并继续: stores the version the launch check compared (so the next launch matches), or, when
 * the check was offline, the version of the text the user actually read; then opens home.
 */
export async function acceptPolicy(
  deps: ConsentDeps,
  mode: PrivacyPageMode,
  agreement: Pick<Agreement, 'version'>,
): Promise<void> {
  const version =
    mode.kind === 'consent' && mode.version !== null ? mode.version : agreement.version
  deps.acceptVersion(version)
  await Promise.resolve(deps.switchTab(HOME_PAGE)).catch(() => undefined)
}

/** 不同意: leave the app; where it cannot close, the page shows the blocked state. */
export function refusePolicy(deps: ConsentDeps): Promise<void> {
  return leaveApp(deps, 'refused')
}
