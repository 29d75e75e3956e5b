import Taro from '@tarojs/taro'

/*
 * The system map (SPEC section 2: /choose-location, /open-location).
 *
 * - weapp: `openLocation` shows a place in WeChat's map (with 导航 to any installed map app) and
 *   needs no permission; `chooseLocation` lets the person pick a place on the map (declared in
 *   app.config's requiredPrivateInfos). A refusal is remembered by WeChat: the page then offers
 *   the settings page (openSetting).
 * - H5: no system map. The place is shown with its address and links that open 高德地图 or 百度地图
 *   (their apps when installed, their web pages otherwise).
 *
 * Coordinates are GCJ-02, what WeChat and Chinese map apps take.
 */

export interface Place {
  name: string
  address: string
  latitude: number | null
  longitude: number | null
}

export type ChooseOutcome =
  | { status: 'ok'; place: Place }
  | { status: 'cancelled' }
  | { status: 'denied'; message: string }
  | { status: 'unavailable'; message: string }

export const MAP_MESSAGES = {
  denied: '未获得位置权限，请在设置中允许使用位置信息后重试',
  unavailable: '暂时无法打开地图，请稍后重试',
  noPlace: '没有位置信息',
} as const

const APP_NAME = 'yingxiangtong'

function errMsgOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && 'errMsg' in error) {
    return String((error as { errMsg: unknown }).errMsg)
  }
  return error instanceof Error ? error.message : String(error)
}

export const hasCoordinates = (
  place: Place,
): place is Place & { latitude: number; longitude: number } =>
  place.latitude !== null && place.longitude !== null

/** Whether a map can find the place: by its coordinates, else by its name or address. */
export const canLocate = (place: Place): boolean =>
  hasCoordinates(place) || place.name.trim() !== '' || place.address.trim() !== ''

/** Whether this platform has a system map page (the mini-program). */
export function hasSystemMap(): boolean {
  return process.env.TARO_ENV === 'weapp'
}

/** WeChat's map at the place; false when it cannot be shown there (no coordinates, H5). */
export async function openSystemMap(place: Place): Promise<boolean> {
  if (!hasSystemMap() || !hasCoordinates(place)) return false
  try {
    await Taro.openLocation({
      latitude: place.latitude,
      longitude: place.longitude,
      name: place.name,
      address: place.address,
      scale: 16,
    })
    return true
  } catch {
    return false
  }
}

/** The person picks a place on WeChat's map (weapp only). */
export async function chooseOnSystemMap(): Promise<ChooseOutcome> {
  if (!hasSystemMap()) return { status: 'unavailable', message: MAP_MESSAGES.unavailable }
  try {
    const picked = await Taro.chooseLocation({})
    return {
      status: 'ok',
      place: {
        name: picked.name || picked.address,
        address: picked.address,
        latitude: picked.latitude,
        longitude: picked.longitude,
      },
    }
  } catch (error) {
    const message = errMsgOf(error)
    if (/cancel/i.test(message)) return { status: 'cancelled' }
    return /auth|deny|denied|permission/i.test(message)
      ? { status: 'denied', message: MAP_MESSAGES.denied }
      : { status: 'unavailable', message: MAP_MESSAGES.unavailable }
  }
}

/** WeChat's settings page, where a refused location permission is turned back on. */
export async function openPermissionSettings(): Promise<void> {
  if (hasSystemMap()) await Taro.openSetting({}).catch(() => undefined)
}

/** Links that open the place in a map app or site (H5): with coordinates a marker, else a search. */
export function mapLinks(place: Place): { label: string; url: string }[] {
  // Nothing to search for: a map opened on an empty search would only look broken.
  if (!canLocate(place)) return []
  const q = encodeURIComponent
  const keyword = [place.name, place.address].filter(Boolean).join(' ')
  if (hasCoordinates(place)) {
    return [
      {
        label: '高德地图',
        url: `https://uri.amap.com/marker?position=${place.longitude},${place.latitude}&name=${q(place.name)}&coordinate=gaode&callnative=1`,
      },
      {
        label: '百度地图',
        url: `https://api.map.baidu.com/marker?location=${place.latitude},${place.longitude}&title=${q(place.name)}&content=${q(place.address)}&coord_type=gcj02&output=html&src=${APP_NAME}`,
      },
    ]
  }
  return [
    {
      label: '高德地图',
      url: `https://uri.amap.com/search?keyword=${q(keyword)}&callnative=1`,
    },
    {
      label: '百度地图',
      url: `https://api.map.baidu.com/geocoder?address=${q(keyword)}&output=html&src=${APP_NAME}`,
    },
  ]
}
