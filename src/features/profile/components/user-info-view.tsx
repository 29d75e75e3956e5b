import { Image, Text, View } from '@tarojs/components'
import { Button, Cell, Dialog, Input } from '@nutui/nutui-react-taro'
import { ArrowRight } from '@nutui/icons-react-taro'
import { navigate, routeUrl } from '@/services/navigate'
import { fileUrl, idCardStatusText } from '@/services/profile'
import { GENDER_LABELS, type UserInfoModel } from '../hooks/use-user-info'
import './user-info-view.scss'

export interface UserInfoViewProps {
  model: UserInfoModel
}

const arrow = <ArrowRight size={12} color="#c8c9cc" />

function Extra({ text }: { text: string }) {
  return (
    <View className="user-info__extra">
      <Text className="user-info__extra-text">{text}</Text>
      {arrow}
    </View>
  )
}

export function UserInfoView({ model }: UserInfoViewProps) {
  const { profile, nickname } = model
  if (!profile) {
    return (
      <View className="user-info user-info--signed-out">
        <Text className="user-info__hint">登录后可查看和修改个人信息</Text>
        <Button
          type="primary"
          onClick={() => void navigate('login', { redirect: routeUrl('userInfo') })}
        >
          去登录
        </Button>
      </View>
    )
  }
  const initial = profile.nickname.trim().slice(0, 1) || '医'
  return (
    <View className="user-info">
      <Cell.Group className="user-info__group">
        <Cell
          title="头像"
          align="center"
          clickable
          onClick={model.changeAvatar}
          extra={
            <View className="user-info__extra">
              <View className="user-info__avatar">
                {profile.avatarUrl ? (
                  <Image
                    className="user-info__avatar-image"
                    src={fileUrl(profile.avatarUrl)}
                    mode="aspectFill"
                  />
                ) : (
                  <Text>{initial}</Text>
                )}
                {model.uploadingAvatar && <View className="user-info__uploading">上传中</View>}
              </View>
              {arrow}
            </View>
          }
        />
        <Cell
          title="昵称"
          clickable
          onClick={model.editNickname}
          extra={<Extra text={profile.nickname || '未设置'} />}
        />
        <Cell
          title="性别"
          clickable
          onClick={model.chooseGender}
          extra={<Extra text={profile.gender ? GENDER_LABELS[profile.gender] : '未设置'} />}
        />
      </Cell.Group>
      <Cell.Group className="user-info__group">
        <Cell
          title="手机号"
          clickable
          onClick={() => void navigate('bindPhone')}
          extra={<Extra text={profile.mobileMasked ?? '未绑定'} />}
        />
        <Cell
          title="身份证"
          clickable
          onClick={() => void navigate('idCard')}
          extra={<Extra text={idCardStatusText(profile)} />}
        />
        <Cell
          title="账号类型"
          extra={
            <Text className="user-info__extra-text">
              {profile.role === 'expert' ? '专家' : '患者'}
            </Text>
          }
        />
      </Cell.Group>
      <Dialog
        visible={nickname.open}
        title="修改昵称"
        confirmText="保存"
        disableConfirmButton={nickname.saving || nickname.error !== null}
        onConfirm={model.saveNickname}
        onCancel={model.cancelNickname}
        content={
          <View className="user-info__dialog">
            <Input
              className="user-info__input"
              value={nickname.value}
              placeholder="1–20 个字"
              maxLength={20}
              clearable
              onChange={model.typeNickname}
            />
            {nickname.error !== null && (
              <View className="user-info__error" role="alert">
                {nickname.error}
              </View>
            )}
          </View>
        }
      />
    </View>
  )
}
