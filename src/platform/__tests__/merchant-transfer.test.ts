import Taro from '@tarojs/taro'
import {
  compareVersions,
  merchantTransferSupport,
  requestMerchantTransfer,
} from '../merchant-transfer'

type Api = Record<string, unknown>
const api = Taro as unknown as Api
const PARAMS = { mchId: '1900000001', appId: 'wx0000000000000001', packageInfo: 'ABBQO+oYAAAB' }

describe('确认收款 (wx.requestMerchantTransfer)', () => {
  const saved = process.env.TARO_ENV
  afterEach(() => {
    process.env.TARO_ENV = saved
    delete api.requestMerchantTransfer
    delete api.getAppBaseInfo
  })

  it('compares base library versions as numbers', () => {
    expect(compareVersions('3.3.0', '3.3.0')).toBe(0)
    expect(compareVersions('3.10.1', '3.3.0')).toBe(1)
    expect(compareVersions('3.2.9', '3.3.0')).toBe(-1)
    expect(compareVersions('3.3', '3.3.0')).toBe(0)
  })

  it('is not there in the browser', async () => {
    process.env.TARO_ENV = 'h5'
    api.requestMerchantTransfer = jest.fn()
    expect(merchantTransferSupport()).toBe('unavailable')
    await expect(requestMerchantTransfer(PARAMS)).resolves.toBe('unavailable')
    expect(api.requestMerchantTransfer).not.toHaveBeenCalled()
  })

  it('asks to update WeChat under base library 3.3.0, or when the API is missing', async () => {
    process.env.TARO_ENV = 'weapp'
    expect(merchantTransferSupport()).toBe('outdated')
    api.requestMerchantTransfer = jest.fn()
    api.getAppBaseInfo = () => ({ SDKVersion: '3.2.5' })
    await expect(requestMerchantTransfer(PARAMS)).resolves.toBe('outdated')
    expect(api.requestMerchantTransfer).not.toHaveBeenCalled()
  })

  it('uses wx’s own API when Taro did not copy it', async () => {
    process.env.TARO_ENV = 'weapp'
    api.getAppBaseInfo = () => ({ SDKVersion: '3.3.0' })
    const wx = {
      requestMerchantTransfer: jest.fn((options: Api) => (options.success as () => void)()),
    }
    ;(globalThis as { wx?: unknown }).wx = wx
    try {
      await expect(requestMerchantTransfer(PARAMS)).resolves.toBe('confirmed')
      expect(wx.requestMerchantTransfer).toHaveBeenCalled()
    } finally {
      delete (globalThis as { wx?: unknown }).wx
    }
  })

  it('passes mchId, appId and package, and tells confirmed, cancelled and failed apart', async () => {
    process.env.TARO_ENV = 'weapp'
    api.getAppBaseInfo = () => ({ SDKVersion: '3.4.0' })
    const outcomes: Array<(options: Api) => void> = [
      (options) => (options.success as () => void)(),
      (options) =>
        (options.fail as (e: unknown) => void)({ errMsg: 'requestMerchantTransfer:fail cancel' }),
      (options) =>
        (options.fail as (e: unknown) => void)({ errMsg: 'requestMerchantTransfer:fail 参数错误' }),
    ]
    const request = jest.fn((options: Api) => outcomes.shift()!(options))
    api.requestMerchantTransfer = request
    await expect(requestMerchantTransfer(PARAMS)).resolves.toBe('confirmed')
    expect(request.mock.calls[0]![0]).toMatchObject({
      mchId: '1900000001',
      appId: 'wx0000000000000001',
      package: 'ABBQO+oYAAAB',
    })
    await expect(requestMerchantTransfer(PARAMS)).resolves.toBe('cancelled')
    await expect(requestMerchantTransfer(PARAMS)).resolves.toBe('failed')
  })
})
