import Taro from '@tarojs/taro'
import { getCurrentLocation, LOCATION_MESSAGES, LOCATION_TIMEOUT_MS } from '../location'

const taro = Taro as unknown as Record<string, unknown>
const savedEnv = process.env.TARO_ENV
const savedFuzzy = taro.getFuzzyLocation
const savedGeolocation = Object.getOwnPropertyDescriptor(navigator, 'geolocation')

function setGeolocation(value: unknown) {
  Object.defineProperty(navigator, 'geolocation', { value, configurable: true })
}

afterEach(() => {
  process.env.TARO_ENV = savedEnv
  taro.getFuzzyLocation = savedFuzzy
  if (savedGeolocation) Object.defineProperty(navigator, 'geolocation', savedGeolocation)
  else delete (navigator as unknown as Record<string, unknown>).geolocation
  jest.useRealTimers()
})

describe('current location on weapp', () => {
  beforeEach(() => {
    process.env.TARO_ENV = 'weapp'
  })

  it('answers the fuzzy position WeChat gives', async () => {
    taro.getFuzzyLocation = jest.fn(async () => ({ latitude: 30.66, longitude: 104.06 }))
    await expect(getCurrentLocation()).resolves.toEqual({
      status: 'ok',
      latitude: 30.66,
      longitude: 104.06,
    })
  })

  it('a refusal is a denial with a way forward, not an exception', async () => {
    taro.getFuzzyLocation = jest.fn(async () => {
      throw { errMsg: 'getFuzzyLocation:fail auth deny' }
    })
    await expect(getCurrentLocation()).resolves.toEqual({
      status: 'denied',
      message: LOCATION_MESSAGES.denied,
    })
  })

  it('any other failure says the position is unavailable', async () => {
    taro.getFuzzyLocation = jest.fn(async () => {
      throw { errMsg: 'getFuzzyLocation:fail timeout' }
    })
    expect((await getCurrentLocation()).status).toBe('unavailable')
    delete taro.getFuzzyLocation
    expect((await getCurrentLocation()).status).toBe('unavailable')
  })
})

describe('current location in a browser', () => {
  beforeEach(() => {
    process.env.TARO_ENV = 'h5'
  })

  it('answers the browser position', async () => {
    setGeolocation({
      getCurrentPosition: (ok: PositionCallback) =>
        ok({ coords: { latitude: 39.9, longitude: 116.4 } } as GeolocationPosition),
    })
    await expect(getCurrentLocation()).resolves.toEqual({
      status: 'ok',
      latitude: 39.9,
      longitude: 116.4,
    })
  })

  it('PERMISSION_DENIED is a denial', async () => {
    setGeolocation({
      getCurrentPosition: (_ok: PositionCallback, fail: PositionErrorCallback) =>
        fail({ code: 1, message: 'denied' } as GeolocationPositionError),
    })
    await expect(getCurrentLocation()).resolves.toEqual({
      status: 'denied',
      message: LOCATION_MESSAGES.denied,
    })
  })

  it('no Geolocation API, or a prompt never answered, ends as unavailable', async () => {
    setGeolocation(undefined)
    expect((await getCurrentLocation()).status).toBe('unavailable')
    jest.useFakeTimers()
    setGeolocation({ getCurrentPosition: () => undefined })
    const pending = getCurrentLocation()
    jest.advanceTimersByTime(LOCATION_TIMEOUT_MS)
    await expect(pending).resolves.toEqual({
      status: 'unavailable',
      message: LOCATION_MESSAGES.unavailable,
    })
  })
})
