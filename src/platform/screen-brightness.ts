import Taro from '@tarojs/taro'

/**
 * A bright, awake screen while a code is shown for scanning (bar code, exam QR code).
 *
 * - weapp: the brightness is raised to full and the screen kept on; `restore` puts back the
 *   brightness it found (WeChat also restores it when the mini-program leaves the foreground).
 * - H5: browsers cannot set the brightness; where the Screen Wake Lock API exists the screen is
 *   kept on, which is what matters at a scanner.
 *
 * Never throws: a code shown on a dim screen still works.
 */
export async function brightenScreen(): Promise<() => void> {
  if (process.env.TARO_ENV === 'weapp') {
    let previous: number | null = null
    try {
      previous = (await Taro.getScreenBrightness()).value
    } catch {
      previous = null
    }
    try {
      await Taro.setScreenBrightness({ value: 1 })
    } catch {
      return () => undefined
    }
    void Taro.setKeepScreenOn({ keepScreenOn: true }).catch(() => undefined)
    return () => {
      if (previous !== null)
        void Taro.setScreenBrightness({ value: previous }).catch(() => undefined)
      void Taro.setKeepScreenOn({ keepScreenOn: false }).catch(() => undefined)
    }
  }
  const wakeLock =
    typeof navigator === 'undefined'
      ? undefined
      : (
          navigator as Navigator & {
            wakeLock?: { request(type: 'screen'): Promise<{ release(): Promise<void> }> }
          }
        ).wakeLock
  if (!wakeLock) return () => undefined
  try {
    const sentinel = await wakeLock.request('screen')
    return () => void sentinel.release().catch(() => undefined)
  } catch {
    return () => undefined
  }
}
