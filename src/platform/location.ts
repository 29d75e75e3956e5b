import Taro from '@tarojs/taro'

/**
 * The person's rough position, for "hospitals near me" (影像查询 → 选择地区或医院).
 *
 * - weapp: `getFuzzyLocation` (city-level, the privacy-friendly API WeChat reviews without a
 *   special reason; declared in app.config's requiredPrivateInfos). A refusal is remembered by
 *   WeChat, so the next try fails at once: the page then offers the region list instead.
 * - H5: the browser's Geolocation API, which asks the person and works only on HTTPS or localhost.
 *
 * Never throws: every way it can fail is an outcome with a Chinese sentence the page shows as is,
 * so a person who says no still gets a working page (choose the region by hand).
 */
export type LocationOutcome =
  | { status: 'ok'; latitude: number; longitude: number }
  /** The person (or the system settings) said no. */
  | { status: 'denied'; message: string }
  /** No position could be had: no API, timeout, no signal. */
  | { status: 'unavailable'; message: string }

export const LOCATION_MESSAGES = {
  denied: '未获得定位权限，请手动选择地区',
  unavailable: '暂时无法获取您的位置，请手动选择地区',
  insecure: '当前页面不支持定位，请手动选择地区',
} as const

/** Browsers that never answer (a prompt left open) must not leave the page waiting for ever. */
export const LOCATION_TIMEOUT_MS = 10000

function errMsgOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'errMsg' in error) {
    const { errMsg } = error as { errMsg: unknown }
    if (typeof errMsg === 'string') return errMsg
  }
  return error instanceof Error ? error.message : String(error)
}

async function weappLocation(): Promise<LocationOutcome> {
  const api = (Taro as unknown as { getFuzzyLocation?: typeof Taro.getLocation }).getFuzzyLocation
  if (typeof api !== 'function') {
    return { status: 'unavailable', message: LOCATION_MESSAGES.unavailable }
  }
  try {
    const result = await api({ type: 'wgs84' })
    return { status: 'ok', latitude: result.latitude, longitude: result.longitude }
  } catch (error) {
    // "getFuzzyLocation:fail auth deny", "... authorize no response", "... system permission denied"
    const message = errMsgOf(error)
    return /auth|deny|denied|permission/i.test(message)
      ? { status: 'denied', message: LOCATION_MESSAGES.denied }
      : { status: 'unavailable', message: LOCATION_MESSAGES.unavailable }
  }
}

function browserLocation(): Promise<LocationOutcome> {
  const geolocation =
    typeof navigator !== 'undefined' && typeof navigator.geolocation === 'object'
      ? navigator.geolocation
      : null
  if (!geolocation) {
    return Promise.resolve({ status: 'unavailable', message: LOCATION_MESSAGES.unavailable })
  }
  if (typeof window !== 'undefined' && window.isSecureContext === false) {
    return Promise.resolve({ status: 'unavailable', message: LOCATION_MESSAGES.insecure })
  }
  return new Promise((resolve) => {
    let settled = false
    const finish = (outcome: LocationOutcome) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      resolve(outcome)
    }
    // The browser's own timeout does not run while its permission prompt is open.
    const timer = setTimeout(
      () => finish({ status: 'unavailable', message: LOCATION_MESSAGES.unavailable }),
      LOCATION_TIMEOUT_MS,
    )
    try {
      geolocation.getCurrentPosition(
        (position) =>
          finish({
            status: 'ok',
            latitude: position.coords.latitude,
            longitude: position.coords.longitude,
          }),
        (error) =>
          finish(
            error.code === 1
              ? { status: 'denied', message: LOCATION_MESSAGES.denied }
              : { status: 'unavailable', message: LOCATION_MESSAGES.unavailable },
          ),
        { enableHighAccuracy: false, timeout: LOCATION_TIMEOUT_MS, maximumAge: 10 * 60 * 1000 },
      )
    } catch {
      finish({ status: 'unavailable', message: LOCATION_MESSAGES.unavailable })
    }
  })
}

export function getCurrentLocation(): Promise<LocationOutcome> {
  if (process.env.TARO_ENV === 'weapp') return weappLocation()
  return browserLocation()
}
