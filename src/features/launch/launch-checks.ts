import type { PolicyVersion } from '@contract/main/app'
import type { ProxyStatus } from '@/platform/proxy'
import type { PrivacySetting } from '@/platform/privacy'
import type { ModalOptions } from '@/platform/ui'
import { routeUrl } from '@/services/navigate'

/**
 * The launch rules (SPEC section 1, issue 2 point 5), as plain async logic over injected adapters so
 * every branch is tested without a device. app.ts calls `scheduleLaunchChecks()` from `useLaunch`.
 */

export const PROXY_WARNING = {
  title: '警告',
  content: '检测到您的设备正在使用网络代理，为保障数据安全，无法继续使用。',
} as const

export const HOME_PAGE = routeUrl('main')

export type BlockReason = 'proxy' | 'refused'

export function consentUrl(version: string | null): string {
  return routeUrl('privacyPolicy', { consent: 1, version: version ?? undefined })
}

export function blockedUrl(reason: BlockReason): string {
  return routeUrl('privacyPolicy', { blocked: reason })
}

export type VersionLookup = { ok: true; version: string } | { ok: false }

export type PolicyDecision =
  | { action: 'continue' }
  /** version: what the server published, or null when it could not be asked. */
  | { action: 'ask-consent'; version: string | null }

/**
 * Consent is asked when the server's version differs from the stored one (including "none stored")
 * or when WeChat itself reports that its privacy authorisation is missing.
 *
 * Offline (the version call failed): a user who accepted some version before continues, and is asked
 * again at a later launch if the version changed; we do not lock out a returning user for a network
 * blip. A user who never accepted anything is sent to the consent page, which loads the policy
 * itself and offers 重试 while offline, so nobody uses the app without having agreed once.
 */
export function decidePolicy(input: {
  storedVersion: string | null
  lookup: VersionLookup
  wechatNeedsAuthorization: boolean
}): PolicyDecision {
  const { storedVersion, lookup, wechatNeedsAuthorization } = input
  if (lookup.ok) {
    if (storedVersion !== lookup.version || wechatNeedsAuthorization) {
      return { action: 'ask-consent', version: lookup.version }
    }
    return { action: 'continue' }
  }
  if (storedVersion === null || wechatNeedsAuthorization)
    return { action: 'ask-consent', version: null }
  return { action: 'continue' }
}

export interface LaunchDeps {
  /** H5 and WeChat's in-app browser: true; the mini-program and a future native app: false. */
  isBrowser: () => boolean
  softwareName: () => string
  detectProxy: () => Promise<ProxyStatus>
  exitApp: () => Promise<boolean>
  getPrivacySetting: () => Promise<PrivacySetting | null>
  getPolicyVersion: (softwareName: string) => Promise<PolicyVersion>
  getAcceptedVersion: () => string | null
  reLaunch: (url: string) => Promise<void> | void
  showModal: (options: ModalOptions) => Promise<boolean>
}

export type LaunchOutcome =
  | 'blocked-proxy'
  | 'skipped-browser'
  | 'consent-requested'
  | 'consent-requested-offline'
  | 'continued'
  | 'continued-offline'

/** Leaves the app, or, where it cannot be closed (H5, WeChat refusing), shows the blocked state. */
export async function leaveApp(
  deps: Pick<LaunchDeps, 'exitApp' | 'reLaunch'>,
  reason: BlockReason,
): Promise<void> {
  const closed = await deps.exitApp().catch(() => false)
  if (!closed) await Promise.resolve(deps.reLaunch(blockedUrl(reason))).catch(() => undefined)
}

export async function runLaunchChecks(deps: LaunchDeps): Promise<LaunchOutcome> {
  const proxy = await deps.detectProxy().catch((): ProxyStatus => 'cannot-detect')
  if (proxy === 'proxy') {
    await deps.showModal({ ...PROXY_WARNING, showCancel: false })
    await leaveApp(deps, 'proxy')
    return 'blocked-proxy'
  }

  // In a browser consent is taken where the user signs up or logs in, not at launch.
  if (deps.isBrowser()) return 'skipped-browser'

  const [lookup, wechat] = await Promise.all([
    deps
      .getPolicyVersion(deps.softwareName())
      .then((policy): VersionLookup => ({ ok: true, version: policy.version }))
      .catch((): VersionLookup => ({ ok: false })),
    deps.getPrivacySetting().catch(() => null),
  ])
  const decision = decidePolicy({
    storedVersion: deps.getAcceptedVersion(),
    lookup,
    wechatNeedsAuthorization: wechat?.needAuthorization === true,
  })
  if (decision.action === 'continue') return lookup.ok ? 'continued' : 'continued-offline'
  await Promise.resolve(deps.reLaunch(consentUrl(decision.version))).catch(() => undefined)
  return lookup.ok ? 'consent-requested' : 'consent-requested-offline'
}
