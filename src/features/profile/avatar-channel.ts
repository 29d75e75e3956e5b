import Taro from '@tarojs/taro'

/**
 * How the crop page hands the cropped picture back to 个人信息: through the opener's event
 * channel, which Taro provides on weapp and H5 alike. The two pages ship in different weapp
 * subpackages, which cannot share module state, so a module variable would not do.
 */
export const AVATAR_CROPPED_EVENT = 'avatarCropped'
export const AVATAR_CROPPER_PATH = '/uview-ui/components/u-avatar-cropper/u-avatar-cropper'
export const USER_INFO_PATH = '/pages/userInfo/userInfo'

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
    void Taro.navigateBack().catch(() => undefined)
    return
  }
  // Opened directly (a bookmarked URL): nobody is waiting, so go to 个人信息 to start over.
  void Taro.redirectTo({ url: USER_INFO_PATH }).catch(() => undefined)
}

/** 个人信息: open the crop page and receive its file. */
export function pickCroppedAvatar(onCropped: (filePath: string) => void): void {
  void Taro.navigateTo({
    url: AVATAR_CROPPER_PATH,
    events: {
      [AVATAR_CROPPED_EVENT]: (filePath: unknown) => {
        if (typeof filePath === 'string' && filePath !== '') onCropped(filePath)
      },
    },
  }).catch(() => undefined)
}
