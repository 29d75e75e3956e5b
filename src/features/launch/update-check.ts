import Taro from '@tarojs/taro'
import { showModal, showToast } from '@/platform/ui'
import { UPDATE_TEXTS } from './update-policy'

/**
 * The mini-program's update: WeChat downloads a new version in the background; when it is ready the
 * person is asked to restart into it (applyUpdate). The H5 build swaps in update-check.h5.ts.
 */
export function startUpdateCheck(): void {
  if (typeof Taro.getUpdateManager !== 'function') return
  const manager = Taro.getUpdateManager()
  manager.onUpdateReady(() => {
    void showModal({
      title: UPDATE_TEXTS.title,
      content: UPDATE_TEXTS.readyWeapp,
      confirmText: UPDATE_TEXTS.confirmWeapp,
      cancelText: UPDATE_TEXTS.later,
    }).then((restart) => {
      if (restart) manager.applyUpdate()
    })
  })
  manager.onUpdateFailed(() => showToast(UPDATE_TEXTS.failedWeapp, { duration: 3000 }))
}
