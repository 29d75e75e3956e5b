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
  getKeptAfterDeletion: jest.fn(),
}))
const mocked = jest.mocked(auth)

function DeleteAccount() {
  return <DeleteAccountView view={useDeleteAccount()} />
}

/** A patient with two ended consultations, one of them paid and answered with a signature. */
const KEPT: auth.KeptAfterDeletion[] = [
  { rule: 'security-events', role: null, count: 0, until: '2027-11-29T21:00:00.000Z' },
  {
    rule: 'consultation-conversations',
    role: 'patient',
    count: 2,
    until: '2029-05-02T20:00:00.000Z',
  },
  { rule: 'signed-opinions', role: 'patient', count: 1, until: '2041-05-01T09:30:00.000Z' },
  {
    rule: 'consultation-applications',
    role: 'patient',
    count: 2,
    until: '2041-05-02T20:00:00.000Z',
  },
  { rule: 'ledger', role: 'patient', count: 1, until: null },
  { rule: 'deleted-accounts', role: null, count: 0, until: null },
]

let modal: jest.SpyInstance
let reLaunch: jest.SpyInstance

beforeEach(() => {
  resetStores()
  useAppStore.getState().setProfile(profile())
  useSessionStore.getState().setToken({ access_token: 'tok' })
  modal = jest.spyOn(Taro, 'showModal')
  reLaunch = jest.spyOn(Taro, 'reLaunch').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  mocked.getKeptAfterDeletion.mockResolvedValue(KEPT)
  mocked.sendOwnCode.mockResolvedValue({
    cooldownSeconds: 60,
    expiresInSeconds: 300,
    mobileMasked: '138****8000',
  })
})

async function fillCode() {
  await act(flush)
  fireEvent.click(screen.getByText('获取验证码'))
  await act(flush)
  typeInto('请输入验证码', '123456')
}

describe('delete account', () => {
  it('says what is deleted and kept, and where the code goes', async () => {
    await mount(DeleteAccount)
    await act(flush)
    expect(screen.getByText('注销后将删除')).toBeTruthy()
    expect(screen.getByText('将保留')).toBeTruthy()
    expect(screen.getByText('验证码将发送至 138****8000')).toBeTruthy()
    await fillCode()
    expect(mocked.sendOwnCode).toHaveBeenCalledWith('delete')
  })

  it('shows, before confirming, exactly what remains of this account and until which day', async () => {
    await mount(DeleteAccount)
    await act(flush)
    const text = document.body.textContent ?? ''
    // The dates are China's days: 2029-05-02 20:00 UTC is the 3rd in Beijing.
    expect(text).toContain(
      '您作为患者的 2 次会诊的对话与图片将最晚保留至 2029-05-03（会诊结束后 3 年），之后删除',
    )
    expect(text).toContain(
      '您作为患者的会诊中 1 份已签署的回复或报告将保留至 2041-05-01（签署后 15 年），之后删除',
    )
    expect(text).toContain('您作为患者的 2 次会诊申请中的病情描述将最晚保留至 2041-05-03')
    expect(text).toContain(
      '您作为患者的 1 笔会诊订单的支付、退款与账本记录将按会计档案要求长期保留',
    )
    expect(text).toContain('您的登录记录等安全日志（含本次注销）将保留至 2027-11-30（12 个月）')
    // The whole schedule, with its reasons, one tap away.
    expect(text).not.toContain('会计档案管理办法')
    fireEvent.click(screen.getByText('查看全部数据的保留期限'))
    expect(document.body.textContent).toContain('会计档案管理办法')
    expect(document.body.textContent).toContain('导出文件（导出我的数据）')
  })

  it('does not delete before what remains was shown: an error offers 重试, and the form waits', async () => {
    mocked.getKeptAfterDeletion.mockRejectedValueOnce(refusal('服务器繁忙，请稍后再试'))
    modal.mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
    await mount(DeleteAccount)
    await act(flush)
    expect(screen.getByText('服务器繁忙，请稍后再试')).toBeTruthy()
    await fillCode()
    fireEvent.click(screen.getByText('我已阅读并同意注销'))
    fireEvent.click(screen.getByText('注销账号'))
    await act(flush)
    expect(screen.getByText('请先查看注销后将保留的记录，再注销')).toBeTruthy()
    expect(modal).not.toHaveBeenCalled()
    expect(mocked.deleteAccount).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('重试'))
    await act(flush)
    expect(document.body.textContent).toContain('您作为患者的 2 次会诊的对话与图片')
    fireEvent.click(screen.getByText('注销账号'))
    await act(flush)
    expect(modal).toHaveBeenCalled()
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
