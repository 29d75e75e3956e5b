import Taro from '@tarojs/taro'

/** SPEC section 9: toasts last 1500 ms and show no icon unless a caller asks for one. */
export const TOAST_DURATION = 1500

export interface ToastOptions {
  duration?: number
  icon?: 'none' | 'success' | 'error' | 'loading'
  mask?: boolean
}

export function showToast(title: string, options: ToastOptions = {}): void {
  void Taro.showToast({
    title,
    duration: options.duration ?? TOAST_DURATION,
    icon: options.icon ?? 'none',
    mask: options.mask ?? false,
  }).catch(() => {
    // A toast that cannot be shown (page switching) is not worth an unhandled rejection.
  })
}

export function showLoading(title: string, mask = true): void {
  void Taro.showLoading({ title, mask }).catch(() => undefined)
}

export function hideLoading(): void {
  // Typed void, but the mini-program's promisified API rejects when no loading is open.
  const result: unknown = Taro.hideLoading()
  if (result instanceof Promise) result.catch(() => undefined)
}

export interface ModalOptions {
  title: string
  content: string
  showCancel?: boolean
  confirmText?: string
  cancelText?: string
}

/** Resolves true when the user confirmed, false when they cancelled or the modal failed. */
export async function showModal(options: ModalOptions): Promise<boolean> {
  try {
    const result = await Taro.showModal({
      title: options.title,
      content: options.content,
      showCancel: options.showCancel ?? true,
      confirmText: options.confirmText ?? '确定',
      cancelText: options.cancelText ?? '取消',
    })
    return result.confirm
  } catch {
    return false
  }
}

/**
 * WeChat shows a "返回首页" button on a page opened by reLaunch; the consent page hides it so the
 * policy cannot be skipped. Other platforms have no such button.
 */
export function hideHomeButton(): void {
  if (process.env.TARO_ENV !== 'weapp') return
  if (typeof Taro.hideHomeButton !== 'function') return
  void Taro.hideHomeButton().catch(() => undefined)
}
