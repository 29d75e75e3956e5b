import Taro from '@tarojs/taro'
import { exitApp } from '../exit'
import { taroNavigator, withQuery } from '../navigation'
import { canUseAgreePrivacyButton, getPrivacySetting, requirePrivacyAuthorize } from '../privacy'
import { detectProxy } from '../proxy'
import { currentPlatform, currentSoftwareName, isBrowser } from '../runtime'
import { createMemoryStorage, createTaroStorage } from '../storage'
import { hideLoading, showModal, showToast } from '../ui'

const taro = Taro as unknown as Record<string, unknown>
const savedEnv = process.env.TARO_ENV
const originals = new Map<string, unknown>()

/** Puts a WeChat-only API on Taro for one test (H5's Taro may not have it), restored afterwards. */
function stub(name: string, fn: (...args: never[]) => unknown) {
  if (!originals.has(name)) originals.set(name, taro[name])
  taro[name] = jest.fn(fn)
}

afterEach(() => {
  process.env.TARO_ENV = savedEnv
  jest.restoreAllMocks()
  for (const [name, original] of originals) {
    if (original === undefined) delete taro[name]
    else taro[name] = original
  }
  originals.clear()
})

describe('runtime', () => {
  it('knows the platform and whether it is a browser', () => {
    process.env.TARO_ENV = 'h5'
    expect([currentPlatform(), isBrowser(), currentSoftwareName()]).toEqual([
      'h5',
      true,
      'yingxiang-h5',
    ])
    process.env.TARO_ENV = 'weapp'
    expect([currentPlatform(), isBrowser(), currentSoftwareName()]).toEqual([
      'weapp',
      false,
      'yingxiang-weapp',
    ])
  })
})

describe('storage adapter', () => {
  it('reads, writes and removes strings; a missing key is null', () => {
    const memory = createMemoryStorage()
    const storage = createTaroStorage(memory)
    expect(storage.getItem('k')).toBeNull()
    storage.setItem('k', '{"a":1}')
    expect(storage.getItem('k')).toBe('{"a":1}')
    storage.removeItem('k')
    expect(storage.getItem('k')).toBeNull()
  })

  it('survives a storage that throws (full, unavailable)', () => {
    const broken = {
      getStorageSync: () => {
        throw new Error('no storage')
      },
      setStorageSync: () => {
        throw new Error('full')
      },
      removeStorageSync: () => {
        throw new Error('no storage')
      },
    }
    const storage = createTaroStorage(broken)
    expect(storage.getItem('k')).toBeNull()
    expect(() => storage.setItem('k', 'v')).not.toThrow()
    expect(() => storage.removeItem('k')).not.toThrow()
  })

  it('works over real Taro storage', () => {
    const storage = createTaroStorage()
    storage.setItem('probe', 'v')
    expect(Taro.getStorageSync('probe')).toBe('v')
    expect(storage.getItem('probe')).toBe('v')
    storage.removeItem('probe')
  })
})

describe('ui', () => {
  it('toasts for 1500 ms without an icon by default', () => {
    const spy = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
    showToast('已保存')
    expect(spy).toHaveBeenCalledWith({ title: '已保存', duration: 1500, icon: 'none', mask: false })
  })

  it('resolves a modal to whether the user confirmed', async () => {
    const spy = jest
      .spyOn(Taro, 'showModal')
      .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
    await expect(showModal({ title: '警告', content: 'x', showCancel: false })).resolves.toBe(true)
    expect(spy).toHaveBeenCalledWith(expect.objectContaining({ title: '警告', showCancel: false }))
  })

  it('hideLoading swallows the mini-program’s "no loading open" rejection', async () => {
    jest.spyOn(Taro, 'hideLoading').mockReturnValue(Promise.reject(new Error('fail')) as never)
    expect(() => hideLoading()).not.toThrow()
  })
})

describe('proxy adapter', () => {
  it('reports cannot-detect on weapp and H5', async () => {
    process.env.TARO_ENV = 'weapp'
    await expect(detectProxy()).resolves.toBe('cannot-detect')
    process.env.TARO_ENV = 'h5'
    await expect(detectProxy()).resolves.toBe('cannot-detect')
  })
})

describe('exit', () => {
  it('H5 cannot close the tab', async () => {
    process.env.TARO_ENV = 'h5'
    await expect(exitApp()).resolves.toBe(false)
  })

  it('weapp exits the mini-program', async () => {
    process.env.TARO_ENV = 'weapp'
    const exit = jest.spyOn(Taro, 'exitMiniProgram').mockResolvedValue({ errMsg: 'ok' })
    await expect(exitApp()).resolves.toBe(true)
    expect(exit).toHaveBeenCalled()
  })

  it('weapp reports false when WeChat refuses (not from a tap)', async () => {
    process.env.TARO_ENV = 'weapp'
    jest.spyOn(Taro, 'exitMiniProgram').mockRejectedValue(new Error('fail'))
    await expect(exitApp()).resolves.toBe(false)
  })
})

describe('WeChat privacy', () => {
  it('is a no-op outside the mini-program', async () => {
    process.env.TARO_ENV = 'h5'
    await expect(getPrivacySetting()).resolves.toBeNull()
    await expect(requirePrivacyAuthorize()).resolves.toBe(true)
    expect(canUseAgreePrivacyButton()).toBe(false)
  })

  it('reads getPrivacySetting on weapp', async () => {
    process.env.TARO_ENV = 'weapp'
    stub('getPrivacySetting', ((options: {
      success: (r: { needAuthorization: boolean; privacyContractName: string }) => void
    }) =>
      options.success({
        needAuthorization: true,
        privacyContractName: '《隐私保护指引》',
      })) as never)
    await expect(getPrivacySetting()).resolves.toEqual({
      needAuthorization: true,
      contractName: '《隐私保护指引》',
    })
  })

  it('answers null when the base library lacks it', async () => {
    process.env.TARO_ENV = 'weapp'
    stub('getPrivacySetting', () => undefined)
    delete taro.getPrivacySetting
    await expect(getPrivacySetting()).resolves.toBeNull()
  })

  it('requirePrivacyAuthorize resolves false when the user declines', async () => {
    process.env.TARO_ENV = 'weapp'
    stub('requirePrivacyAuthorize', ((options: { fail: () => void }) => options.fail()) as never)
    await expect(requirePrivacyAuthorize()).resolves.toBe(false)
  })
})

describe('navigation', () => {
  it('builds encoded query strings, leaving undefined out', () => {
    expect(withQuery('/pages/a/a', { x: '1 2', y: undefined })).toBe('/pages/a/a?x=1%202')
    expect(withQuery('/pages/a/a?z=1', { x: '2' })).toBe('/pages/a/a?z=1&x=2')
  })

  it('describes the current page without Taro’s internal parameters', () => {
    jest.spyOn(Taro, 'getCurrentInstance').mockReturnValue({
      router: {
        path: '/pages/personalReport/index?tab=2',
        params: { tab: '2', $taroTimestamp: '123' },
      },
    } as unknown as ReturnType<typeof Taro.getCurrentInstance>)
    expect(taroNavigator.currentUrl()).toBe('/pages/personalReport/index?tab=2')
  })
})
