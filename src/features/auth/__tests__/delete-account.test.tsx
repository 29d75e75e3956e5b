import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { mount } from '@/components/form/__tests__/mount'
import * as auth from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { typeInto } from '@/components/form/__tests__/inputs'
import { flush, profile, refusal } from '@/services/__tests__/account-fixtures'
import { DeleteAccountView } from '../components/delete-account-view'
import { DELETE_TEXT, useDeleteAccount } from '../hooks/use-delete-account'

jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  sendOwnCode: jest.fn(),
  deleteAccount: jest.fn(),
}))
const mocked = jest.mocked(auth)

function DeleteAccount() {
  return <DeleteAccountView view={useDeleteAccount()} />
}

let modal: jest.SpyInstance
let reLaunch: jest.SpyInstance

beforeEach(() => {
  resetStores()
  useAppStore.getState().setProfile(profile())
  useSessionStore.getState().setToken({ access_token: 'tok' })
  modal = jest.spyOn(Taro, 'showModal')
  reLaunch = jest.spyOn(Taro, 'reLaunch').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  mocked.sendOwnCode.mockResolvedValue({
    cooldownSeconds: 60,
    expiresInSeconds: 300,
    mobileMasked: '138****8000',
  })
})

async function fillCode() {
  fireEvent.click(screen.getByText('获取验证码'))
  await act(flush)
  typeInto('请输入验证码', '123456')
}

describe('delete account', () => {
  it('says what is deleted and kept, and where the code goes', async () => {
    await mount(DeleteAccount)
    expect(screen.getByText('注销后将删除')).toBeTruthy()
    expect(screen.getByText('将保留')).toBeTruthy()
    expect(screen.getByText('验证码将发送至 138****8000')).toBeTruthy()
    await fillCode()
    expect(mocked.sendOwnCode).toHaveBeenCalledWith('delete')
  })

  it('requires 我已阅读并同意注销 and a confirmation', async () => {
    modal.mockResolvedValue({ confirm: false, cancel: true, errMsg: 'ok' })
    await mount(DeleteAccount)
    await fillCode()
    fireEvent.click(screen.getByText('注销账号'))
    expect(screen.getByText(DELETE_TEXT.consentRequired)).toBeTruthy()
    expect(modal).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('我已阅读并同意注销'))
    fireEvent.click(screen.getByText('注销账号'))
    await act(flush)
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: DELETE_TEXT.confirmTitle }))
    expect(mocked.deleteAccount).not.toHaveBeenCalled()
    expect(getAccessToken()).toBe('tok')
  })

  it('deletes, signs out and goes home once confirmed', async () => {
    modal.mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
    mocked.deleteAccount.mockResolvedValue(true)
    await mount(DeleteAccount)
    await fillCode()
    fireEvent.click(screen.getByText('我已阅读并同意注销'))
    fireEvent.click(screen.getByText('注销账号'))
    await act(flush)
    expect(mocked.deleteAccount).toHaveBeenCalledWith('123456')
    expect(getAccessToken()).toBeNull()
    expect(useAppStore.getState().profile).toBeNull()
    expect(reLaunch).toHaveBeenCalledWith({ url: '/pages/main/main' })
  })

  it('keeps the account and the form when the code is wrong', async () => {
    modal.mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
    mocked.deleteAccount.mockRejectedValue(refusal('验证码错误，还可尝试 4 次'))
    await mount(DeleteAccount)
    await fillCode()
    fireEvent.click(screen.getByText('我已阅读并同意注销'))
    fireEvent.click(screen.getByText('注销账号'))
    await act(flush)
    expect(screen.getByText('验证码错误，还可尝试 4 次')).toBeTruthy()
    expect(getAccessToken()).toBe('tok')
  })
})
