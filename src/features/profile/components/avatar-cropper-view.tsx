import { Image, Text, View } from '@tarojs/components'
import { AvatarCropper } from '@nutui/nutui-react-taro'
import { fileUrl } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import { returnCroppedAvatar } from '../avatar-channel'
import './avatar-cropper-view.scss'

const TOOLBAR = [
  <Text key="cancel" className="avatar-cropper__tool">
    取消
  </Text>,
  <Text key="reset" className="avatar-cropper__tool">
    重置
  </Text>,
  <Text key="rotate" className="avatar-cropper__tool">
    旋转
  </Text>,
  <Text key="confirm" className="avatar-cropper__tool avatar-cropper__tool--confirm">
    确定
  </Text>,
]

/**
 * 裁剪头像: NutUI's AvatarCropper picks the picture (album or camera), lets the person move, zoom
 * and rotate it inside a round frame, and hands back a square image (a temp file on weapp, a data
 * URL on H5), which goes back to 个人信息 for upload.
 */
export function AvatarCropperView() {
  const profile = useAppStore((state) => state.profile)
  const avatarUrl = profile?.avatarUrl ?? null
  return (
    <View className="avatar-cropper">
      <AvatarCropper
        className="avatar-cropper__picker"
        shape="round"
        space={16}
        maxZoom={3}
        sizeType={['compressed']}
        sourceType={['album', 'camera']}
        toolbar={TOOLBAR}
        editText={<Text className="avatar-cropper__edit">选择图片</Text>}
        onConfirm={(file: unknown) => {
          if (typeof file === 'string' && file !== '') returnCroppedAvatar(file)
        }}
      >
        <View className="avatar-cropper__current">
          {avatarUrl ? (
            <Image className="avatar-cropper__image" src={fileUrl(avatarUrl)} mode="aspectFill" />
          ) : (
            <Text className="avatar-cropper__initial">{profile?.nickname.slice(0, 1) || '医'}</Text>
          )}
        </View>
      </AvatarCropper>
      <Text className="avatar-cropper__hint">点击头像，从相册选择或拍摄一张照片</Text>
      <Text className="avatar-cropper__tip">可拖动、双指缩放调整位置，点击“确定”后上传</Text>
    </View>
  )
}
