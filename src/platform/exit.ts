import Taro from '@tarojs/taro'

/**
 * Leaves the app. Resolves true when the platform is closing it, false when it cannot; the caller
 * then shows a blocking state saying the app cannot be used.
 *
 * - weapp: `Taro.exitMiniProgram` (base library 2.17.3+). WeChat only honours it from a user tap
 *   (the 不同意 button, the modal's 确定), so it can fail; that is reported as false.
 * - H5: a script cannot close a tab it did not open, so this always answers false.
 */
export async function exitApp(): Promise<boolean> {
  if (process.env.TARO_ENV !== 'weapp') return false
  if (typeof Taro.exitMiniProgram !== 'function') return false
  try {
    await Taro.exitMiniProgram()
    return true
  } catch {
    return false
  }
}
