import Taro from '@tarojs/taro'
import { back, redirect, routeUrl } from '@/services/navigate'

/**
 * How the crop page hands the cropped picture back to 个人信息: through the opener's event
 * channel, which Taro provides on weapp and H5 alike. The two pages ship in different weapp
 * subpackages, which cannot share module state, so a module variable would not do.
 */
export const AVATAR_CROPPED_EVENT = 'avatarCropped'

interface EventChannelLike {
  emit: (event: string, data: unknown) => void
}

function openerChannel(): EventChannelLike | null {
  const page = Taro.getCurrentInstance().page
  const channel: unknown = page?.getOpenerEventChannel?.()
  if (typeof channel === 'object' && channel !== null && 'emit' in channel) {
    return channel as EventChannelLike
  }
  return null
}

/** Crop page: give the file to the page that opened it, then go back there. */
export function returnCroppedAvatar(filePath: string): void {
  const channel = openerChannel()
  if (channel && Taro.getCurrentPages().length > 1) {
    channel.emit(AVATAR_CROPPED_EVENT, filePath)
    void back('user')
    return
  }
  // Opened directly (a bookmarked URL): nobody is waiting, so go to 个人信息 to start over.
  void redirect('userInfo')
}

/** 个人信息: open the crop page and receive its file. */
export function pickCroppedAvatar(onCropped: (filePath: string) => void): void {
  void Taro.navigateTo({
    // navigate() takes no event channel: the one place that calls Taro's router with a built URL.
    url: routeUrl('avatarCropper'),
    events: {
      [AVATAR_CROPPED_EVENT]: (filePath: unknown) => {
        if (typeof filePath === 'string' && filePath !== '') onCropped(filePath)
      },
    },
  }).catch(() => undefined)
}
