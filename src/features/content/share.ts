import Taro from '@tarojs/taro'
import { currentPlatform } from '@/platform/runtime'
import { showToast } from '@/platform/ui'

/**
 * 分享 on an article or a video. The mini-program shares through its own menu (the page's share
 * card carries the title), so the button says where; H5 copies the page's address.
 */
export async function shareCurrentPage(): Promise<void> {
  if (currentPlatform() === 'weapp') {
    showToast('点击右上角 ··· 转发给朋友')
    return
  }
  try {
    await Taro.setClipboardData({ data: window.location.href })
    showToast('链接已复制，可粘贴发送给朋友')
  } catch {
    showToast('复制失败，请使用浏览器的分享功能')
  }
}
