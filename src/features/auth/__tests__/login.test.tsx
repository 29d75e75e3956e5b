import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { mount } from '@/components/form/__tests__/mount'
import * as auth from '@/services/auth'
import { createHarness, ok } from '@/services/__tests__/http-fakes'
import { resetStores } from '@/stores/reset-stores'
import { useAppStore } from '@/stores/app-store'
import { getAccessToken } from '@/stores/session-store'
import { FORM_MESSAGES as MESSAGES } from '@/components/form/rules'
import { inputsDrawn, typeInto, valueOf } from '@/components/form/__tests__/inputs'
import { flush, refusal, session } from '@/services/__tests__/account-fixtures'
import { LoginView } from '../components/login-view'
import { EXPIRED_NOTE, useLogin, type LoginOptions } from '../hooks/use-login'
import { AGREEMENT_REQUIRED } from '../hooks/use-consent'

jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  sendSmsCode: jest.fn(),
  loginWithPassword: jest.fn(),
  loginWithCode: jest.fn(),
  wechatLogin: jest.fn(),
}))
const mocked = jest.mocked(auth)

function Login({
  params = {},
  options = { thirdParty: true, qr: false },
}: {
  params?: Record<string, string | undefined>
  options?: LoginOptions
}) {
  return <LoginView view={useLogin(params, options)} />
}

const type = typeInto

function agree() {
  fireEvent.click(screen.getByText('我已阅读并同意'))
}

let switchTab: jest.SpyInstance
let redirectTo: jest.SpyInstance

beforeEach(() => {
  resetStores()
  switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
  redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('login page', () => {
  it('checks the phone as it is typed, without scolding an unfinished number', async () => {
    await mount(Login)
    type('请输入手机号', '138')
    expect(screen.queryByText(MESSAGES.mobileInvalid)).toBeNull()
    type('请输入手机号', '118')
    expect(screen.getByText(MESSAGES.mobileInvalid)).toBeTruthy()
    type('请输入手机号', '13800138000')
    expect(screen.queryByText(MESSAGES.mobileInvalid)).toBeNull()
    fireEvent.click(screen.getByText('登录'))
    expect(screen.getByText(MESSAGES.passwordRequired)).toBeTruthy()
  })

  it('requires the agreement before logging in', async () => {
    mocked.loginWithPassword.mockResolvedValue(session())
    await mount(Login)
    type('请输入手机号', '13800138000')
    type('请输入密码', 'abcd1234')
    fireEvent.click(screen.getByText('登录'))
    expect(screen.getByText(AGREEMENT_REQUIRED)).toBeTruthy()
    expect(mocked.loginWithPassword).not.toHaveBeenCalled()
    agree()
    expect(screen.queryByText(AGREEMENT_REQUIRED)).toBeNull()
    fireEvent.click(screen.getByText('登录'))
    await act(flush)
    expect(mocked.loginWithPassword).toHaveBeenCalledWith('13800138000', 'abcd1234')
  })

  it('signs in and returns to where the person was', async () => {
    mocked.loginWithPassword.mockResolvedValue(session({ nickname: '李四' }))
    await mount(Login, { params: { redirect: encodeURIComponent('/pages/pwd/pwd') } })
    type('请输入手机号', '13800138000')
    type('请输入密码', 'abcd1234')
    agree()
    fireEvent.click(screen.getByText('登录'))
    await act(flush)
    expect(getAccessToken()).toBe('tok-1')
    expect(useAppStore.getState()).toMatchObject({ hasLogin: true, userName: '李四' })
    expect(redirectTo).toHaveBeenCalledWith({ url: '/pages/pwd/pwd' })
  })

  it('opens 我的 after a login without a redirect', async () => {
    mocked.loginWithPassword.mockResolvedValue(session())
    await mount(Login)
    type('请输入手机号', '13800138000')
    type('请输入密码', 'abcd1234')
    agree()
    fireEvent.click(screen.getByText('登录'))
    await act(flush)
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/user/user' })
  })

  it('shows the server’s refusal, keeps what was typed and allows another try', async () => {
    let refuse: (error: unknown) => void = () => undefined
    mocked.loginWithPassword.mockReturnValue(
      new Promise((_resolve, reject) => {
        refuse = reject
      }),
    )
    await mount(Login)
    type('请输入手机号', '13800138000')
    type('请输入密码', 'abcd1234')
    agree()
    fireEvent.click(screen.getByText('登录'))
    await act(flush)
    expect(screen.getByText('登录中…')).toBeTruthy()
    fireEvent.click(screen.getByText('登录中…'))
    expect(mocked.loginWithPassword).toHaveBeenCalledTimes(1)
    await act(async () => {
      refuse(refusal('手机号或密码错误，还可尝试 4 次'))
      await flush()
    })
    expect(screen.getByText('手机号或密码错误，还可尝试 4 次')).toBeTruthy()
    expect(valueOf('请输入手机号')).toBe('13800138000')
    expect(screen.getByText('登录')).toBeTruthy()
    expect(getAccessToken()).toBeNull()
  })

  it('sends a code and counts down from the server’s cooldown', async () => {
    mocked.sendSmsCode.mockResolvedValue({ cooldownSeconds: 30, expiresInSeconds: 300 })
    mocked.loginWithCode.mockResolvedValue(session())
    await mount(Login)
    await inputsDrawn()
    jest.useFakeTimers()
    fireEvent.click(screen.getByText('验证码登录'))
    fireEvent.click(screen.getByText('获取验证码'))
    expect(screen.getByText(MESSAGES.mobileRequired)).toBeTruthy()
    expect(mocked.sendSmsCode).not.toHaveBeenCalled()
    type('请输入手机号', '13800138000')
    fireEvent.click(screen.getByText('获取验证码'))
    await act(flush)
    expect(mocked.sendSmsCode).toHaveBeenCalledWith('13800138000', 'login')
    expect(screen.getByText('重新获取(30s)')).toBeTruthy()
    fireEvent.click(screen.getByText('重新获取(30s)'))
    expect(mocked.sendSmsCode).toHaveBeenCalledTimes(1)
    await act(() => jest.advanceTimersByTimeAsync(1000))
    expect(screen.getByText('重新获取(29s)')).toBeTruthy()
    await act(() => jest.advanceTimersByTimeAsync(29000))
    expect(screen.getByText('重新获取')).toBeTruthy()
    type('请输入验证码', '12345')
    agree()
    fireEvent.click(screen.getByText('登录'))
    expect(screen.getByText(MESSAGES.codeInvalid)).toBeTruthy()
    type('请输入验证码', '123456')
    fireEvent.click(screen.getByText('登录'))
    await act(flush)
    expect(mocked.loginWithCode).toHaveBeenCalledWith('13800138000', '123456')
    // Taro's input components queue their drawing on timers: let them finish for the next test.
    await act(() => jest.runOnlyPendingTimersAsync())
  })

  it('shows why a code was not sent', async () => {
    mocked.sendSmsCode.mockRejectedValue(refusal('发送过于频繁，请 1 分钟后再试', 429))
    await mount(Login)
    fireEvent.click(screen.getByText('验证码登录'))
    type('请输入手机号', '13800138000')
    fireEvent.click(screen.getByText('获取验证码'))
    await act(flush)
    expect(screen.getByText('发送过于频繁，请 1 分钟后再试')).toBeTruthy()
    expect(screen.getByText('获取验证码')).toBeTruthy()
  })

  it('offers WeChat login only in the mini-program, and says when it is not configured', async () => {
    const utils = await mount(Login)
    expect(screen.queryByText('微信登录')).toBeNull()
    utils.unmout()
    process.env.TARO_ENV = 'weapp'
    try {
      jest.spyOn(Taro, 'login').mockResolvedValue({ code: 'wx-code', errMsg: 'login:ok' })
      mocked.wechatLogin.mockRejectedValue(refusal('未配置微信登录'))
      await mount(Login)
      agree()
      fireEvent.click(screen.getByText('微信登录'))
      await act(flush)
      expect(mocked.wechatLogin).toHaveBeenCalledWith('wx-code')
      expect(screen.getByText('未配置微信登录')).toBeTruthy()
    } finally {
      process.env.TARO_ENV = 'h5'
    }
  })

  it('the iOS variant offers no third-party login', async () => {
    process.env.TARO_ENV = 'weapp'
    try {
      await mount(Login, { options: { thirdParty: false, qr: false } })
      expect(screen.queryByText('微信登录')).toBeNull()
      expect(screen.queryByText('扫码登录')).toBeNull()
    } finally {
      process.env.TARO_ENV = 'h5'
    }
  })
})

describe('an expired session', () => {
  it('401 anywhere → login with autoLogin=1 shows the note and returns to the page afterwards', async () => {
    jest.useFakeTimers()
    const h = createHarness({}, { token: 'old' })
    h.setCurrentUrl('/pages/pwd/pwd')
    h.reply(ok({ code: 401, message: '未登录', data: null, error: '登录已过期' }, 401))
    await h.http.get('/account/profile').catch(() => undefined)
    await jest.advanceTimersByTimeAsync(1500)
    expect(h.navigations).toHaveLength(1)
    const url = new URL(h.navigations[0], 'http://localhost')
    expect(url.pathname).toBe('/pages/login/login')
    jest.useRealTimers()

    mocked.loginWithPassword.mockResolvedValue(session())
    await mount(Login, { params: Object.fromEntries(url.searchParams) })
    expect(screen.getByText(EXPIRED_NOTE)).toBeTruthy()
    type('请输入手机号', '13800138000')
    type('请输入密码', 'abcd1234')
    agree()
    fireEvent.click(screen.getByText('登录'))
    await act(flush)
    expect(redirectTo).toHaveBeenCalledWith({ url: '/pages/pwd/pwd' })
  })

  it('shows no note on an ordinary visit', async () => {
    await mount(Login)
    expect(screen.queryByText(EXPIRED_NOTE)).toBeNull()
  })
})
