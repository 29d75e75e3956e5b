import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { REASONS } from '@contract/reasons'
import { inputsDrawn, typeInto } from '@/components/form/__tests__/inputs'
import { mount } from '@/components/form/__tests__/mount'
import { FORM_MESSAGES } from '@/components/form/rules'
import * as auth from '@/services/auth'
import * as profileService from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { profile } from '@/services/__tests__/account-fixtures'
import { BindTelView } from '../components/bind-tel-view'
import { BIND_TEL_TEXT, useBindTel } from '../hooks/use-bind-tel'

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  bindPhone: jest.fn(),
  sendBindCode: jest.fn(),
}))
jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  sendOwnCode: jest.fn(),
  sendSmsCode: jest.fn(),
  mergeUser: jest.fn(),
}))
const mocked = {
  ...jest.mocked(profileService),
  sendOwnCode: jest.mocked(auth.sendOwnCode),
  sendSmsCode: jest.mocked(auth.sendSmsCode),
  mergeUser: jest.mocked(auth.mergeUser),
}

function Page() {
  return <BindTelView model={useBindTel()} />
}

/** The server's 400, in its words and with its reason code. */
function refusal(error: string, reason: string | null) {
  const { HttpError } = jest.requireActual<typeof import('@/services/http')>('@/services/http')
  return new HttpError(
    { statusCode: 400, header: {}, data: { code: 400, message: 'x', data: null, error, reason } },
    'business',
  )
}

async function flush() {
  await act(async () => {
    for (let i = 0; i < 5; i += 1) await Promise.resolve()
  })
}

const SENT = { cooldownSeconds: 60, expiresInSeconds: 300 }

async function fillNewPhone() {
  typeInto('请输入新手机号', '13900139000')
  fireEvent.click(screen.getAllByText('获取验证码').at(-1) as HTMLElement)
  await flush()
  expect(mocked.sendBindCode).toHaveBeenCalledWith('13900139000')
  typeInto('请输入验证码', '654321')
}

beforeEach(() => {
  resetStores()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  mocked.sendBindCode.mockResolvedValue(SENT)
  mocked.sendOwnCode.mockResolvedValue({ ...SENT, mobileMasked: '138****8000' })
  mocked.bindPhone.mockResolvedValue(profile({ mobileMasked: '139****9000' }))
})

describe('绑定手机号', () => {
  it('asks for the login password first, then binds and says other devices were signed out', async () => {
    useAppStore.getState().setProfile(profile())
    await mount(Page)
    expect(screen.getByText('第一步：验证当前身份')).toBeTruthy()
    await fillNewPhone()
    fireEvent.click(screen.getByText('确认绑定'))
    expect(screen.getByText(FORM_MESSAGES.passwordRequired)).toBeTruthy()
    expect(mocked.bindPhone).not.toHaveBeenCalled()
    typeInto('请输入当前登录密码', 'demo1234')
    fireEvent.click(screen.getByText('确认绑定'))
    await flush()
    expect(mocked.bindPhone).toHaveBeenCalledWith({
      mobile: '13900139000',
      code: '654321',
      password: 'demo1234',
    })
    expect(screen.getByRole('status').textContent).toBe(BIND_TEL_TEXT.signedOut)
    expect(screen.getByText('当前手机号：139****9000')).toBeTruthy()
  })

  it('or a code sent to the current phone', async () => {
    useAppStore.getState().setProfile(profile())
    await mount(Page)
    await inputsDrawn()
    fireEvent.click(screen.getByText('原手机号验证码'))
    expect(screen.getByText('验证码将发送至 138****8000')).toBeTruthy()
    fireEvent.click(screen.getAllByText('获取验证码')[0])
    await flush()
    expect(mocked.sendOwnCode).toHaveBeenCalledWith('verify-old')
    typeInto('请输入验证码', '111111')
    typeInto('请输入新手机号', '13900139000')
    fireEvent.click(screen.getByText('获取验证码'))
    await flush()
    const codes = screen
      .getAllByPlaceholderText('请输入验证码')
      .filter((element) => element.tagName.toLowerCase() === 'taro-input-core')
    fireEvent(codes[1], new CustomEvent('input', { bubbles: true, detail: { value: '654321' } }))
    fireEvent.click(screen.getByText('确认绑定'))
    await flush()
    expect(mocked.bindPhone).toHaveBeenCalledWith({
      mobile: '13900139000',
      code: '654321',
      oldCode: '111111',
    })
  })

  it('asks nothing more of a WeChat-only account; a number with its own account can be merged', async () => {
    useAppStore.getState().setProfile(profile({ mobileMasked: null, hasPassword: false }))
    mocked.bindPhone.mockRejectedValueOnce(refusal('该手机号已被其他账号使用', REASONS.mobileInUse))
    await mount(Page)
    expect(screen.queryByText('第一步：验证当前身份')).toBeNull()
    await fillNewPhone()
    fireEvent.click(screen.getByText('确认绑定'))
    await flush()
    expect(mocked.bindPhone).toHaveBeenCalledWith({ mobile: '13900139000', code: '654321' })
    expect(screen.getByText('该手机号已被其他账号使用')).toBeTruthy()
    // The number has an account of its own: merge it, with a code to it and its password.
    mocked.sendSmsCode.mockResolvedValue(SENT)
    mocked.mergeUser.mockResolvedValue(profile({ mobileMasked: '139****9000' }))
    fireEvent.click(screen.getByText('这是我的手机号，合并账号'))
    fireEvent.click(screen.getByText('获取验证码'))
    await flush()
    expect(mocked.sendSmsCode).toHaveBeenCalledWith('13900139000', 'merge')
    typeInto('请输入验证码', '222222')
    typeInto('该手机号账号的登录密码（未设置可不填）', 'phone1234')
    fireEvent.click(screen.getByText('确认合并'))
    await flush()
    expect(mocked.mergeUser).toHaveBeenCalledWith({
      mobile: '13900139000',
      code: '222222',
      password: 'phone1234',
    })
    expect(screen.getByText('账号已合并')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe(BIND_TEL_TEXT.signedOut)
  })

  it('offers the merge by the server’s reason, not by its words', async () => {
    useAppStore.getState().setProfile(profile({ mobileMasked: null, hasPassword: false }))
    // The same words with another reason (or none): no merge.
    mocked.bindPhone
      .mockRejectedValueOnce(refusal('该手机号已被其他账号使用', null))
      .mockRejectedValueOnce(refusal('该手机号已被其他账号使用', REASONS.idCardTaken))
      // Reworded, with the reason: the merge is offered.
      .mockRejectedValueOnce(refusal('此号码已注册了另一个账号', REASONS.mobileInUse))
    await mount(Page)
    await fillNewPhone()
    fireEvent.click(screen.getByText('确认绑定'))
    await flush()
    expect(screen.getByText('该手机号已被其他账号使用')).toBeTruthy()
    expect(screen.queryByText('这是我的手机号，合并账号')).toBeNull()
    fireEvent.click(screen.getByText('确认绑定'))
    await flush()
    expect(screen.getByText('该手机号已被其他账号使用')).toBeTruthy()
    expect(screen.queryByText('这是我的手机号，合并账号')).toBeNull()
    fireEvent.click(screen.getByText('确认绑定'))
    await flush()
    expect(screen.getByText('此号码已注册了另一个账号')).toBeTruthy()
    expect(screen.getByText('这是我的手机号，合并账号')).toBeTruthy()
  })
})
