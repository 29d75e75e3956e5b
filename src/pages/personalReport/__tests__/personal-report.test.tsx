import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile, refusal } from '@/services/__tests__/account-fixtures'
import {
  getReportDetail,
  hideReport,
  listMyHospitals,
  listPersonalReports,
  markAllReportsRead,
  sendReportUnlockCode,
  setReportArchived,
  setReportPrivacy,
  unlockReports,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { typeInto } from '@/components/form/__tests__/inputs'
import {
  HOSPITAL_A,
  HOSPITAL_B,
  myHospital,
  reportDetail,
  reportItem,
} from '../../../features/records/__tests__/fixtures'
import { forgetUnlockTicket } from '../../../features/records/unlock-ticket'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  listPersonalReports: jest.fn(),
  listMyHospitals: jest.fn(),
  markAllReportsRead: jest.fn(),
  getReportDetail: jest.fn(),
  unlockReports: jest.fn(),
  sendReportUnlockCode: jest.fn(),
  setReportPrivacy: jest.fn(),
  setReportArchived: jest.fn(),
  hideReport: jest.fn(),
}))

const list = jest.mocked(listPersonalReports)
const hospitals = jest.mocked(listMyHospitals)
const detail = jest.mocked(getReportDetail)
const unlock = jest.mocked(unlockReports)

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

function page(items = [reportItem(1)], unread = 0) {
  return { items, total: items.length, page: 1, pageSize: 10, unread }
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  forgetUnlockTicket()
  hospitals.mockResolvedValue([myHospital(HOSPITAL_A), myHospital(HOSPITAL_B)])
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
})
afterEach(() => navigateTo.mockRestore())

describe('个人报告 (personalReport/index)', () => {
  it('asks a signed-out person to log in', async () => {
    const shown = await renderPage('pages/personalReport/index')
    expect(shown.element.textContent).toContain('登录后才能查看个人报告')
    expect(list).not.toHaveBeenCalled()
  })

  it('lists reports with unread marks, hides a private report’s words, and opens one', async () => {
    signIn()
    list.mockResolvedValue(
      page(
        [
          reportItem(1, { read: false }),
          reportItem(2, { private: true, summary: null, hospital: HOSPITAL_B }),
          reportItem(3, { status: 'amended', statusLabel: '已修订', archived: true }),
        ],
        1,
      ),
    )
    const shown = await renderPage('pages/personalReport/index')
    expect(await screen.findByText('胸部 CT 平扫 1')).toBeTruthy()
    expect(document.title).toBe('个人报告')
    expect(list).toHaveBeenLastCalledWith({ page: 1, pageSize: 10 })
    const text = shown.element.textContent ?? ''
    expect(text).toContain('1 份未读')
    expect(text).toContain('诊断意见：双肺未见明显异常')
    expect(text).toContain('隐私报告，验证身份后查看')
    expect(text).toContain('已修订')
    expect(text).toContain('个人档案')
    expect(shown.element.querySelectorAll('.report-card--unread')).toHaveLength(1)

    fireEvent.click(screen.getByText('胸部 CT 平扫 2'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalReport/detail?id=r2' })
  })

  it('filters by hospital, date, unread and private, and marks all read', async () => {
    signIn()
    jest.useFakeTimers({
      now: new Date('2026-11-23T04:00:00.000Z'),
      doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask', 'setTimeout', 'setInterval'],
    })
    list.mockResolvedValue(page([reportItem(1, { read: false })], 1))
    await renderPage('pages/personalReport/index', { t: 'filters' })
    await screen.findByText('胸部 CT 平扫 1')

    fireEvent.click(screen.getByText('华西医院'))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, hospitalId: 'h-b' }),
    )
    fireEvent.click(screen.getByText('近一个月'))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith({
        page: 1,
        pageSize: 10,
        hospitalId: 'h-b',
        dateFrom: '2026-10-23',
        dateTo: '2026-11-23',
      }),
    )
    fireEvent.click(screen.getByText('只看未读'))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ unreadOnly: true })),
    )
    fireEvent.click(document.querySelector('.reports__private .nut-switch')!)
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ includePrivate: true })),
    )
    jest.useRealTimers()

    jest.mocked(markAllReportsRead).mockResolvedValue({ marked: 1 })
    list.mockResolvedValue(page([reportItem(1)], 0))
    fireEvent.click(screen.getByText('全部已读'))
    expect(await screen.findByText('没有未读报告')).toBeTruthy()
    expect(markAllReportsRead).toHaveBeenCalledTimes(1)
  })

  it('an empty list says ~ 空空如也 ~; a filtered one says nothing matched', async () => {
    signIn()
    list.mockResolvedValue(page([]))
    await renderPage('pages/personalReport/index', { t: 'empty' })
    expect(await screen.findByText('~ 空空如也 ~')).toBeTruthy()
    fireEvent.click(screen.getByText('近一年'))
    expect(await screen.findByText('没有符合条件的报告')).toBeTruthy()
  })
})

describe('个人报告 from WeChat (personalReport/index-weixin)', () => {
  it('signed out, login comes back with the whole query', async () => {
    const shown = await renderPage('pages/personalReport/index-weixin', {
      hospitalId: 'h-b',
      unread: 1,
    })
    expect(shown.element.textContent).toContain('登录后查看您的检查报告')
    fireEvent.click(screen.getByText('去登录'))
    const back = encodeURIComponent('/pages/personalReport/index-weixin?hospitalId=h-b&unread=1')
    expect(navigateTo).toHaveBeenLastCalledWith({ url: `/pages/login/login?redirect=${back}` })
  })

  it('opens filtered as its link says, with a way to 首页', async () => {
    signIn()
    list.mockResolvedValue(page([reportItem(5, { read: false, hospital: HOSPITAL_B })], 1))
    const shown = await renderPage('pages/personalReport/index-weixin', {
      hospitalId: 'h-b',
      unread: 1,
    })
    expect(await screen.findByText('胸部 CT 平扫 5')).toBeTruthy()
    expect(list).toHaveBeenLastCalledWith({
      page: 1,
      pageSize: 10,
      hospitalId: 'h-b',
      unreadOnly: true,
    })
    expect(shown.element.textContent).toContain('您在各医院的检查报告都在这里')
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'switchTab:ok' })
    fireEvent.click(screen.getByText('首页 ›'))
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/main/main' })
    switchTab.mockRestore()
  })

  it('a notification naming one report goes straight to it', async () => {
    signIn()
    // Earlier pages of this file still mounted react to the sign-in; only this page's calls count.
    await act(async () => undefined)
    list.mockClear()
    const redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'redirectTo:ok' })
    await renderPage('pages/personalReport/index-weixin', { reportId: 'r9' })
    await waitFor(() =>
      expect(redirectTo).toHaveBeenCalledWith({ url: '/pages/personalReport/detail?id=r9' }),
    )
    expect(list).not.toHaveBeenCalled()
    // Kept mocked for the rest of the file: this page, still mounted, would redirect again when a
    // later test signs in.
  })
})

describe('报告详情 (personalReport/detail)', () => {
  it('shows findings, conclusion, doctors, times, status and the amendment history', async () => {
    signIn()
    detail.mockResolvedValue(
      reportDetail({
        status: 'amended',
        statusLabel: '已修订',
        version: 2,
        history: [
          {
            version: 1,
            status: 'final',
            statusLabel: '正式报告',
            recordedAt: '2026-11-20T03:00:00.000Z',
            issuedAt: '2026-11-20T03:00:00.000Z',
            findings: '右肺下叶见小结节。',
            conclusion: '右肺下叶小结节，建议随访。',
            performer: '李医生',
            reviewer: '王主任',
          },
        ],
      }),
    )
    const shown = await renderPage('pages/personalReport/detail', { id: 'r1' })
    expect(await screen.findByText('双肺未见明显异常。')).toBeTruthy()
    expect(detail).toHaveBeenCalledWith('r1', undefined)
    const text = shown.element.textContent ?? ''
    for (const part of [
      '影像所见',
      '双肺纹理清晰',
      '诊断意见',
      '报告医生李医生',
      '审核医生王主任',
    ]) {
      expect(text).toContain(part)
    }
    expect(text).toContain('检查时间2026-11-20 09:30')
    expect(text).toContain('报告时间2026-11-20 11:00')
    expect(text).toContain('已修订')
    expect(text).toContain('第 2 版')
    expect(text).toContain('修订记录')
    expect(screen.queryByText('右肺下叶小结节，建议随访。')).toBeNull()
    fireEvent.click(screen.getByText('展开'))
    expect(screen.getByText('右肺下叶小结节，建议随访。')).toBeTruthy()

    fireEvent.click(screen.getByText('查看本次检查的影像'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalImage/detail?id=x1' })
  })

  it('a private report asks for the password first, then shows it; the code works too', async () => {
    signIn()
    detail.mockImplementation(async (_id, ticket) =>
      ticket === 'T1'
        ? reportDetail({ private: true })
        : reportDetail({
            private: true,
            locked: true,
            findings: null,
            conclusion: null,
            performer: null,
            reviewer: null,
          }),
    )
    const shown = await renderPage('pages/personalReport/detail', { id: 'r1', t: 'private' })
    expect(await screen.findByText('这是一份隐私报告')).toBeTruthy()
    expect(shown.element.textContent).not.toContain('双肺')

    unlock.mockRejectedValueOnce(refusal('密码错误'))
    fireEvent.click(screen.getByText('验证并查看'))
    expect(await screen.findByText('请输入密码')).toBeTruthy()
    expect(unlock).not.toHaveBeenCalled()
    typeInto('请输入登录密码', 'wrong')
    fireEvent.click(screen.getByText('验证并查看'))
    expect(await screen.findByText('密码错误')).toBeTruthy()

    unlock.mockResolvedValueOnce({ ticket: 'T1', expiresInSeconds: 600 })
    typeInto('请输入登录密码', 'demo1234')
    fireEvent.click(screen.getByText('验证并查看'))
    expect(await screen.findByText('双肺未见明显异常。')).toBeTruthy()
    expect(unlock).toHaveBeenLastCalledWith({ password: 'demo1234' })
    expect(detail).toHaveBeenLastCalledWith('r1', 'T1')
  })

  it('by SMS code: sends it to the account’s phone and unlocks with it', async () => {
    signIn()
    detail.mockImplementation(async (_id, ticket) =>
      ticket === 'T2'
        ? reportDetail({ private: true })
        : reportDetail({ private: true, locked: true }),
    )
    jest.mocked(sendReportUnlockCode).mockResolvedValue({
      cooldownSeconds: 60,
      expiresInSeconds: 300,
      mobileMasked: '138****8000',
    })
    await renderPage('pages/personalReport/detail', { id: 'r1', t: 'sms' })
    await screen.findByText('这是一份隐私报告')
    fireEvent.click(screen.getByText('短信验证码'))
    fireEvent.click(screen.getByText('获取验证码'))
    expect(await screen.findByText('验证码已发送至 138****8000')).toBeTruthy()
    unlock.mockResolvedValueOnce({ ticket: 'T2', expiresInSeconds: 600 })
    typeInto('请输入验证码', '123456')
    fireEvent.click(screen.getByText('验证并查看'))
    expect(await screen.findByText('双肺未见明显异常。')).toBeTruthy()
    expect(unlock).toHaveBeenLastCalledWith({ code: '123456' })
  })

  it('设为隐私, 加入个人档案 and 删除 (after a confirm) act on the report', async () => {
    signIn()
    detail.mockResolvedValue(reportDetail())
    jest.mocked(setReportPrivacy).mockResolvedValue({
      id: 'r1',
      status: 'final',
      statusLabel: '正式报告',
      issuedAt: null,
      read: true,
      private: true,
    })
    jest.mocked(setReportArchived).mockResolvedValue({ archived: true })
    jest.mocked(hideReport).mockResolvedValue({ ok: true })
    await renderPage('pages/personalReport/detail', { id: 'r1', t: 'actions' })
    await screen.findByText('双肺未见明显异常。')

    fireEvent.click(screen.getByText('设为隐私'))
    expect(await screen.findByText('取消隐私')).toBeTruthy()
    expect(setReportPrivacy).toHaveBeenCalledWith('r1', true, undefined)

    fireEvent.click(screen.getByText('加入个人档案'))
    expect(await screen.findByText('移出个人档案')).toBeTruthy()
    expect(setReportArchived).toHaveBeenCalledWith('r1', true)

    const modal = jest.spyOn(Taro, 'showModal')
    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByText('删除'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(modal.mock.calls[0][0]).toEqual(
      expect.objectContaining({ title: '删除报告', confirmText: '删除' }),
    )
    expect(hideReport).not.toHaveBeenCalled()
    // The cancelled run ends (its finally) before the next tap counts.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })

    modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByText('删除'))
    await waitFor(() => expect(hideReport).toHaveBeenCalledWith('r1'))
    modal.mockRestore()
  })
})
