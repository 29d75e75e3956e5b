import type { ProxyStatus } from '@/platform/proxy'
import type { ModalOptions } from '@/platform/ui'
import {
  HOME_PAGE,
  PROXY_WARNING,
  decidePolicy,
  runLaunchChecks,
  type LaunchDeps,
} from '../launch-checks'

interface FakeOptions {
  proxy?: ProxyStatus
  browser?: boolean
  serverVersion?: string | Error
  stored?: string | null
  wechatNeedsAuthorization?: boolean | null
  canExit?: boolean
}

/** Adapters that record what the user would see: modals, pages opened, whether the app closed. */
function fakeDeps(options: FakeOptions = {}) {
  const seen = {
    modals: [] as ModalOptions[],
    pages: [] as string[],
    exited: false,
    versionRequests: [] as string[],
  }
  const deps: LaunchDeps = {
    isBrowser: () => options.browser ?? false,
    softwareName: () => 'yingxiang-weapp',
    detectProxy: async () => options.proxy ?? 'cannot-detect',
    exitApp: async () => {
      seen.exited = options.canExit ?? true
      return seen.exited
    },
    getPrivacySetting: async () =>
      options.wechatNeedsAuthorization === undefined || options.wechatNeedsAuthorization === null
        ? null
        : {
            needAuthorization: options.wechatNeedsAuthorization,
            contractName: '《医影通隐私保护指引》',
          },
    getPolicyVersion: async (softwareName) => {
      seen.versionRequests.push(softwareName)
      const version = options.serverVersion ?? '2'
      if (version instanceof Error) throw version
      return { softwareName, version, updatedAt: '2024-06-01T00:00:00.000Z' }
    },
    getAcceptedVersion: () => (options.stored === undefined ? null : options.stored),
    reLaunch: (url) => {
      seen.pages.push(url)
    },
    showModal: async (modal) => {
      seen.modals.push(modal)
      return true
    },
  }
  return { deps, seen }
}

describe('runLaunchChecks', () => {
  it('proxy detected: 警告 modal without cancel, then the app exits; no version call', async () => {
    const { deps, seen } = fakeDeps({ proxy: 'proxy' })
    await expect(runLaunchChecks(deps)).resolves.toBe('blocked-proxy')
    expect(seen.modals).toEqual([
      {
        title: '警告',
        content: '检测到您的设备正在使用网络代理，为保障数据安全，无法继续使用。',
        showCancel: false,
      },
    ])
    expect(seen.exited).toBe(true)
    expect(seen.versionRequests).toEqual([])
    expect(seen.pages).toEqual([])
  })

  it('proxy detected where the app cannot close: the blocked page is shown instead', async () => {
    const { deps, seen } = fakeDeps({ proxy: 'proxy', canExit: false })
    await runLaunchChecks(deps)
    expect(seen.pages).toEqual(['/pages/privacyPolicy/privacyPolicy?blocked=proxy'])
  })

  it('the proxy check runs even in a browser', async () => {
    const { deps, seen } = fakeDeps({ proxy: 'proxy', browser: true })
    await runLaunchChecks(deps)
    expect(seen.modals[0].title).toBe(PROXY_WARNING.title)
  })

  it('cannot-detect (weapp, H5): nothing is shown', async () => {
    const { deps, seen } = fakeDeps({ proxy: 'cannot-detect', stored: '2', serverVersion: '2' })
    await runLaunchChecks(deps)
    expect(seen.modals).toEqual([])
  })

  it('a proxy adapter that throws counts as cannot-detect', async () => {
    const { deps, seen } = fakeDeps({ stored: '2', serverVersion: '2' })
    deps.detectProxy = async () => {
      throw new Error('native bridge missing')
    }
    await expect(runLaunchChecks(deps)).resolves.toBe('continued')
    expect(seen.modals).toEqual([])
  })

  it('not a browser, nothing stored yet: asks for consent with the server’s version', async () => {
    const { deps, seen } = fakeDeps({ stored: null, serverVersion: '2024.06' })
    await expect(runLaunchChecks(deps)).resolves.toBe('consent-requested')
    expect(seen.versionRequests).toEqual(['yingxiang-weapp'])
    expect(seen.pages).toEqual(['/pages/privacyPolicy/privacyPolicy?consent=1&version=2024.06'])
  })

  it('not a browser, the version changed: asks for consent again', async () => {
    const { deps, seen } = fakeDeps({ stored: '1', serverVersion: '2' })
    await runLaunchChecks(deps)
    expect(seen.pages).toEqual(['/pages/privacyPolicy/privacyPolicy?consent=1&version=2'])
  })

  it('not a browser, same version: nothing happens', async () => {
    const { deps, seen } = fakeDeps({
      stored: '2',
      serverVersion: '2',
      wechatNeedsAuthorization: false,
    })
    await expect(runLaunchChecks(deps)).resolves.toBe('continued')
    expect(seen.pages).toEqual([])
    expect(seen.modals).toEqual([])
  })

  it('same version but WeChat says its privacy authorisation is missing: asks for consent', async () => {
    const { deps, seen } = fakeDeps({
      stored: '2',
      serverVersion: '2',
      wechatNeedsAuthorization: true,
    })
    await runLaunchChecks(deps)
    expect(seen.pages).toEqual(['/pages/privacyPolicy/privacyPolicy?consent=1&version=2'])
  })

  it('H5 (a browser): no launch check runs, the version is not even asked for', async () => {
    const { deps, seen } = fakeDeps({ browser: true, stored: null })
    await expect(runLaunchChecks(deps)).resolves.toBe('skipped-browser')
    expect(seen.versionRequests).toEqual([])
    expect(seen.pages).toEqual([])
  })

  it('offline with a version accepted before: the user continues', async () => {
    const { deps, seen } = fakeDeps({ stored: '1', serverVersion: new Error('offline') })
    await expect(runLaunchChecks(deps)).resolves.toBe('continued-offline')
    expect(seen.pages).toEqual([])
  })

  it('offline and never accepted: the consent page opens (it loads the policy with 重试)', async () => {
    const { deps, seen } = fakeDeps({ stored: null, serverVersion: new Error('offline') })
    await expect(runLaunchChecks(deps)).resolves.toBe('consent-requested-offline')
    expect(seen.pages).toEqual(['/pages/privacyPolicy/privacyPolicy?consent=1'])
  })
})

describe('decidePolicy', () => {
  it.each([
    [null, { ok: true as const, version: '1' }, false, { action: 'ask-consent', version: '1' }],
    ['1', { ok: true as const, version: '1' }, false, { action: 'continue' }],
    ['1', { ok: true as const, version: '01' }, false, { action: 'ask-consent', version: '01' }],
    ['1', { ok: true as const, version: '1' }, true, { action: 'ask-consent', version: '1' }],
    ['1', { ok: false as const }, false, { action: 'continue' }],
    [null, { ok: false as const }, false, { action: 'ask-consent', version: null }],
    ['1', { ok: false as const }, true, { action: 'ask-consent', version: null }],
  ])('stored %p, server %p, wechat needs %p → %p', (stored, lookup, wechat, expected) => {
    expect(
      decidePolicy({ storedVersion: stored, lookup, wechatNeedsAuthorization: wechat }),
    ).toEqual(expected)
  })

  it('home is the first tab', () => {
    expect(HOME_PAGE).toBe('/pages/main/main')
  })
})
