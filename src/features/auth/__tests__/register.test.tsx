import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { mount } from '@/components/form/__tests__/mount'
import * as auth from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { getAccessToken } from '@/stores/session-store'
import { FORM_MESSAGES as MESSAGES } from '@/components/form/rules'
import { typeInto, valueOf } from '@/components/form/__tests__/inputs'
import { flush, profile, refusal, session } from '@/services/__tests__/account-fixtures'
import { RegInfoView } from '../components/reg-info-view'
import { RegisterView } from '../components/register-view'
import { useRegInfo } from '../hooks/use-reg-info'
import { useRegister } from '../hooks/use-register'
import { AGREEMENT_REQUIRED } from '../hooks/use-consent'

jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  sendSmsCode: jest.fn(),
  register: jest.fn(),
  modifyUser: jest.fn(),
}))
const mocked = jest.mocked(auth)

function Register({ params = {} }: { params?: Record<string, string> }) {
  return <RegisterView view={useRegister(params)} />
}

function RegInfo({ params = {} }: { params?: Record<string, string> }) {
  return <RegInfoView view={useRegInfo(params)} />
}

let redirectTo: jest.SpyInstance
let switchTab: jest.SpyInstance

beforeEach(() => {
  resetStores()
  redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'ok' })
  switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('register', () => {
  it('explains the password rule and rates its strength as it is typed', async () => {
    await mount(Register)
    typeInto('8 位以上字母和数字', 'abc')
    expect(screen.getByText(MESSAGES.passwordRule)).toBeTruthy()
    expect(screen.getByText('密码强度：弱')).toBeTruthy()
    typeInto('8 位以上字母和数字', 'abcd1234')
    expect(screen.queryByText(MESSAGES.passwordRule)).toBeNull()
    expect(screen.getByText('密码强度：中')).toBeTruthy()
    typeInto('8 位以上字母和数字', 'Abcd1234!')
    expect(screen.getByText('密码强度：强')).toBeTruthy()
  })

  it('sends a register code, registers, signs in and opens reg-info with the redirect', async () => {
    mocked.sendSmsCode.mockResolvedValue({ cooldownSeconds: 60, expiresInSeconds: 300 })
    mocked.register.mockResolvedValue(session({ nickname: '用户8000' }))
    await mount(Register, { params: { redirect: encodeURIComponent('/pages/pwd/pwd') } })
    typeInto('请输入手机号', '13800138000')
    fireEvent.click(screen.getByText('获取验证码'))
    await act(flush)
    expect(mocked.sendSmsCode).toHaveBeenCalledWith('13800138000', 'register')
    expect(screen.getByText('重新获取(60s)')).toBeTruthy()
    typeInto('请输入验证码', '123456')
    typeInto('8 位以上字母和数字', 'abcd1234')
    fireEvent.click(screen.getByText('注册'))
    expect(screen.getByText(AGREEMENT_REQUIRED)).toBeTruthy()
    expect(mocked.register).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('我已阅读并同意'))
    fireEvent.click(screen.getByText('注册'))
    await act(flush)
    expect(mocked.register).toHaveBeenCalledWith({
      mobile: '13800138000',
      code: '123456',
      password: 'abcd1234',
      agreed: true,
    })
    expect(getAccessToken()).toBe('tok-1')
    expect(redirectTo).toHaveBeenCalledWith({
      url: '/pages/reg/reg-info?redirect=%2Fpages%2Fpwd%2Fpwd',
    })
  })

  it('shows the server’s refusal (a registered phone) and keeps the form', async () => {
    mocked.register.mockRejectedValue(refusal('该手机号已注册，请直接登录'))
    await mount(Register)
    typeInto('请输入手机号', '13800138000')
    typeInto('请输入验证码', '123456')
    typeInto('8 位以上字母和数字', 'abcd1234')
    fireEvent.click(screen.getByText('我已阅读并同意'))
    fireEvent.click(screen.getByText('注册'))
    await act(flush)
    expect(screen.getByText('该手机号已注册，请直接登录')).toBeTruthy()
    expect(getAccessToken()).toBeNull()
    expect(redirectTo).not.toHaveBeenCalled()
  })
})

describe('reg-info', () => {
  beforeEach(() => {
    useAppStore.getState().setProfile(profile({ nickname: '用户8000' }))
  })

  it('starts from the server’s nickname, saves nickname and gender, then goes on', async () => {
    mocked.modifyUser.mockResolvedValue(profile({ nickname: '小王' }))
    await mount(RegInfo)
    expect(valueOf('请输入昵称')).toBe('用户8000')
    typeInto('请输入昵称', '  ')
    expect(screen.getByText(MESSAGES.nicknameRequired)).toBeTruthy()
    typeInto('请输入昵称', '小王')
    fireEvent.click(screen.getByText('女'))
    fireEvent.click(screen.getByText('保存'))
    await act(flush)
    expect(mocked.modifyUser).toHaveBeenCalledWith({ nickname: '小王', gender: 'female' })
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/user/user' })
  })

  it('can be skipped', async () => {
    await mount(RegInfo, { params: { redirect: '/pages/main/main' } })
    fireEvent.click(screen.getByText('跳过'))
    expect(mocked.modifyUser).not.toHaveBeenCalled()
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/main/main' })
  })
})
