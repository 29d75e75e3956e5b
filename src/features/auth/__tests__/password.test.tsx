import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { mount } from '@/components/form/__tests__/mount'
import * as auth from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { FORM_MESSAGES as MESSAGES } from '@/components/form/rules'
import { inputsDrawn, typeInto } from '@/components/form/__tests__/inputs'
import { flush, profile, refusal, session } from '@/services/__tests__/account-fixtures'
import { ChangePasswordForm, ForgotPasswordForm } from '../components/password-view'
import { PASSWORD_TEXT, useChangePassword, useForgotPassword } from '../hooks/use-password'

jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  sendSmsCode: jest.fn(),
  changePassword: jest.fn(),
  getPassword: jest.fn(),
}))
const mocked = jest.mocked(auth)

function Change() {
  return <ChangePasswordForm view={useChangePassword()} />
}

function Forgot() {
  return <ForgotPasswordForm view={useForgotPassword()} />
}

let toast: jest.SpyInstance

beforeEach(() => {
  resetStores()
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'setNavigationBarTitle').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'ok' })
})

describe('change password', () => {
  it('asks a signed-out person to log in first', async () => {
    await mount(Change)
    expect(screen.getByText('登录后才能修改密码')).toBeTruthy()
    expect(screen.getByText('去登录')).toBeTruthy()
  })

  it('checks the new password and its confirmation as they are typed', async () => {
    useAppStore.getState().setProfile(profile())
    await mount(Change)
    typeInto('请输入原密码', 'oldpass1')
    typeInto('8 位以上字母和数字', 'oldpass1')
    expect(screen.getByText(MESSAGES.passwordSameAsOld)).toBeTruthy()
    typeInto('8 位以上字母和数字', 'newpass1')
    typeInto('请再次输入新密码', 'newpass2')
    expect(screen.getByText(MESSAGES.passwordMismatch)).toBeTruthy()
    typeInto('请再次输入新密码', 'newpass1')
    expect(screen.queryByText(MESSAGES.passwordMismatch)).toBeNull()
  })

  it('signs in with the fresh session and says other devices were logged out', async () => {
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([])
    useAppStore.getState().setProfile(profile())
    useSessionStore.getState().setToken({ access_token: 'old' })
    mocked.changePassword.mockResolvedValue(session({}, 'fresh'))
    await mount(Change)
    await inputsDrawn()
    jest.useFakeTimers()
    typeInto('请输入原密码', 'oldpass1')
    typeInto('8 位以上字母和数字', 'newpass1')
    typeInto('请再次输入新密码', 'newpass1')
    fireEvent.click(screen.getByText('确认修改'))
    await act(flush)
    expect(mocked.changePassword).toHaveBeenCalledWith({
      oldPassword: 'oldpass1',
      newPassword: 'newpass1',
    })
    expect(getAccessToken()).toBe('fresh')
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: PASSWORD_TEXT.changed }))
    await act(() => jest.advanceTimersByTimeAsync(1500))
    expect(Taro.switchTab).toHaveBeenCalledWith({ url: '/pages/user/user' })
    // Taro's input components queue their drawing on timers: let them finish for the next test.
    await act(() => jest.runOnlyPendingTimersAsync())
  })

  it('shows a wrong old password as the server says it', async () => {
    useAppStore.getState().setProfile(profile())
    mocked.changePassword.mockRejectedValue(refusal('原密码错误'))
    await mount(Change)
    typeInto('请输入原密码', 'wrongpass1')
    typeInto('8 位以上字母和数字', 'newpass1')
    typeInto('请再次输入新密码', 'newpass1')
    fireEvent.click(screen.getByText('确认修改'))
    await act(flush)
    expect(screen.getByText('原密码错误')).toBeTruthy()
  })

  it('does not ask a WeChat-made account for an old password it never had', async () => {
    useAppStore.getState().setProfile(profile({ hasPassword: false }))
    await mount(Change)
    expect(screen.queryByPlaceholderText('请输入原密码')).toBeNull()
  })
})

describe('forgot password', () => {
  it('resets with a code and sends the person to log in', async () => {
    // Opened directly (not from login): there is no page to go back to.
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([])
    mocked.sendSmsCode.mockResolvedValue({ cooldownSeconds: 60, expiresInSeconds: 300 })
    mocked.getPassword.mockResolvedValue(true)
    await mount(Forgot)
    await inputsDrawn()
    jest.useFakeTimers()
    typeInto('请输入注册手机号', '13800138000')
    fireEvent.click(screen.getByText('获取验证码'))
    await act(flush)
    expect(mocked.sendSmsCode).toHaveBeenCalledWith('13800138000', 'reset')
    typeInto('请输入验证码', '654321')
    typeInto('8 位以上字母和数字', 'newpass1')
    typeInto('请再次输入新密码', 'newpass1')
    fireEvent.click(screen.getByText('重设密码'))
    await act(flush)
    expect(mocked.getPassword).toHaveBeenCalledWith({
      mobile: '13800138000',
      code: '654321',
      password: 'newpass1',
    })
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: PASSWORD_TEXT.reset }))
    await act(() => jest.advanceTimersByTimeAsync(1500))
    expect(Taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/login/login' })
  })
})
