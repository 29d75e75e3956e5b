import { useCallback, useEffect, useRef, useState } from 'react'
import Taro, { useDidShow } from '@tarojs/taro'
import type { Gender } from '@contract/sso/auth'
import { NICKNAME_RULES, messageOf } from '@/components/form/rules'
import { showToast } from '@/platform/ui'
import { modifyUser } from '@/services/auth'
import { describeError, refreshProfile, uploadAvatar, type UserProfile } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import { pickCroppedAvatar } from '../avatar-channel'

export const GENDER_LABELS: Record<Gender, string> = {
  male: '男',
  female: '女',
  unknown: '保密',
}
const GENDER_ORDER: readonly Gender[] = ['male', 'female', 'unknown']

export interface NicknameEditor {
  open: boolean
  value: string
  error: string | null
  saving: boolean
}

export interface UserInfoModel {
  profile: UserProfile | null
  uploadingAvatar: boolean
  nickname: NicknameEditor
  changeAvatar: () => void
  editNickname: () => void
  typeNickname: (value: string) => void
  saveNickname: () => void
  cancelNickname: () => void
  chooseGender: () => void
}

const CLOSED: NicknameEditor = { open: false, value: '', error: null, saving: false }

/** 个人信息: avatar (crop, upload, save), nickname and gender, each saved to the server at once. */
export function useUserInfo(): UserInfoModel {
  const profile = useAppStore((state) => state.profile)
  const signedIn = useAppStore((state) => state.hasLogin)
  const [uploadingAvatar, setUploadingAvatar] = useState(false)
  const [nickname, setNickname] = useState<NicknameEditor>(CLOSED)
  const alive = useRef(true)

  useEffect(() => {
    alive.current = true
    return () => {
      alive.current = false
    }
  }, [])

  useDidShow(() => {
    if (signedIn) refreshProfile({ loading: false, quietOffline: true }).catch(() => undefined)
  })

  const uploadCropped = useCallback((filePath: string) => {
    setUploadingAvatar(true)
    uploadAvatar(filePath)
      .then((file) => modifyUser({ avatarUrl: file.url }))
      .then(
        () => showToast('头像已更新'),
        (error: unknown) => showToast(`头像上传失败：${describeError(error)}`),
      )
      .finally(() => alive.current && setUploadingAvatar(false))
  }, [])

  const changeAvatar = useCallback(() => {
    if (uploadingAvatar) return
    pickCroppedAvatar(uploadCropped)
  }, [uploadingAvatar, uploadCropped])

  const editNickname = useCallback(() => {
    setNickname({ open: true, value: profile?.nickname ?? '', error: null, saving: false })
  }, [profile])

  const typeNickname = useCallback((value: string) => {
    setNickname((current) => ({ ...current, value, error: messageOf(NICKNAME_RULES, value) }))
  }, [])

  const saveNickname = useCallback(() => {
    const error = messageOf(NICKNAME_RULES, nickname.value)
    if (error !== null || nickname.saving) {
      setNickname((current) => ({ ...current, error }))
      return
    }
    setNickname((current) => ({ ...current, saving: true }))
    modifyUser({ nickname: nickname.value.trim() }).then(
      () => {
        if (!alive.current) return
        setNickname(CLOSED)
        showToast('昵称已保存')
      },
      (failure: unknown) =>
        alive.current &&
        // The dialog stays open with what was typed, and says why the server refused it.
        setNickname((current) => ({ ...current, saving: false, error: describeError(failure) })),
    )
  }, [nickname])

  const cancelNickname = useCallback(() => setNickname(CLOSED), [])

  const chooseGender = useCallback(() => {
    Taro.showActionSheet({ itemList: GENDER_ORDER.map((gender) => GENDER_LABELS[gender]) }).then(
      ({ tapIndex }) => {
        const gender = GENDER_ORDER[tapIndex]
        if (!gender || gender === profile?.gender) return
        modifyUser({ gender }).then(
          () => showToast('性别已保存'),
          (error: unknown) => showToast(`保存失败：${describeError(error)}`),
        )
      },
      () => undefined,
    )
  }, [profile])

  return {
    profile,
    uploadingAvatar,
    nickname,
    changeAvatar,
    editNickname,
    typeNickname,
    saveNickname,
    cancelNickname,
    chooseGender,
  }
}
