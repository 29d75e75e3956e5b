import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { pageConfig } from '@/routes'
import { profile } from '@/services/__tests__/account-fixtures'
import { listBookmarks } from '@/services/bookmarks'
import { createGrant } from '@/services/grants'
import { downloadAuthorisedImage, getExamDetail, getReportDetail } from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { examDetail, reportDetail } from '../../../features/records/__tests__/fixtures'
import { forgetUnlockTicket } from '../../../features/records/unlock-ticket'
import { created } from '../../../features/sharing/owner/__tests__/fixtures'
import { UPLOADED_EXAM } from '../../personalReport/__tests__/ys-fixtures'
import { renderPage } from '../../../../jest/taro-render'

/*
 * The owner's entries to sharing on the detail pages: 授权 opens the sheet for that exam (and its
 * report), 谁看过 opens 授权记录 narrowed to the exam.
 */

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  getExamDetail: jest.fn(),
  getReportDetail: jest.fn(),
  downloadAuthorisedImage: jest.fn(),
}))
jest.mock('@/services/bookmarks', () => ({
  ...jest.requireActual<typeof import('@/services/bookmarks')>('@/services/bookmarks'),
  listBookmarks: jest.fn(),
}))
jest.mock('@/services/grants', () => ({
  ...jest.requireActual<typeof import('@/services/grants')>('@/services/grants'),
  createGrant: jest.fn(),
}))
jest.mock('@/platform/canvas', () => ({
  ...jest.requireActual<typeof import('@/platform/canvas')>('@/platform/canvas'),
  canvasSurface: jest.fn(async () => null),
}))

const exam = jest.mocked(getExamDetail)
const report = jest.mocked(getReportDetail)
const create = jest.mocked(createGrant)

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

async function flush() {
  await act(async () => {
    await Promise.resolve()
    await Promise.resolve()
  })
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  jest.clearAllMocks()
  resetStores()
  forgetUnlockTicket()
  signIn()
  jest.mocked(downloadAuthorisedImage).mockResolvedValue({ src: 'blob:x', release: jest.fn() })
  jest.mocked(listBookmarks).mockResolvedValue([])
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
})
afterEach(() => navigateTo.mockRestore())

function sheet() {
  return document.querySelector<HTMLElement>('.grant-sheet')!
}

describe('sharing entries on the detail pages', () => {
  it('the pages with 授权 turn on the mini-program share handler the share card needs', () => {
    for (const name of ['imageDetail', 'reportDetail', 'uploadDetail'] as const) {
      expect(pageConfig(name)).toMatchObject({ enableShareAppMessage: true })
    }
    expect(pageConfig('grantList')).not.toHaveProperty('enableShareAppMessage')
  })

  it('影像详情: 授权 shares the exam and its report; 谁看过 opens its records', async () => {
    exam.mockResolvedValue(examDetail())
    create.mockResolvedValue(created())
    const page = await renderPage('pages/personalImage/detail', { id: 'x1' })
    await flush()
    fireEvent.click(within(page.element).getByText('授权'))
    await waitFor(() => expect(sheet()).toBeTruthy())
    fireEvent.click(within(sheet()).getByText('生成链接'))
    await flush()
    expect(create).toHaveBeenCalledWith({
      audience: 'link',
      examIds: ['x1'],
      reportIds: ['r1'],
      duration: '24h',
      pickupCode: true,
    })
    await screen.findByText('分享链接已生成')
    fireEvent.click(within(page.element).getByText('谁看过'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalReport/shouquan-list?examId=x1',
    })
  })

  it('报告详情: 授权 includes the private report shown, and 谁看过 is there too', async () => {
    report.mockResolvedValue(reportDetail({ private: true }))
    create.mockResolvedValue(created())
    const page = await renderPage('pages/personalReport/detail', { id: 'r1' })
    await flush()
    fireEvent.click(within(page.element).getByText('授权'))
    await waitFor(() => expect(sheet()).toBeTruthy())
    expect(within(sheet()).getByText('隐私')).toBeTruthy()
    fireEvent.click(within(sheet()).getByText('生成链接'))
    await flush()
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ examIds: ['x1'], reportIds: ['r1'] }),
    )
    fireEvent.click(within(page.element).getByText('谁看过'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalReport/shouquan-list?examId=x1',
    })
  })

  it('a family member’s exam says whose it is, and 授权 / 谁看过 are the member’s', async () => {
    const child = { personId: 'p-child', relation: 'family' as const, label: '子女 张**' }
    exam.mockResolvedValue(examDetail({ owner: child }))
    create.mockResolvedValue(created())
    const page = await renderPage('pages/personalImage/detail', { id: 'x1', t: 'member' })
    await flush()
    expect(within(page.element).getByText('就诊人')).toBeTruthy()
    expect(within(page.element).getByText('子女 张**')).toBeTruthy()
    fireEvent.click(within(page.element).getByText('授权'))
    await waitFor(() => expect(sheet()).toBeTruthy())
    fireEvent.click(within(sheet()).getByText('生成链接'))
    await flush()
    expect(create).toHaveBeenCalledWith(
      expect.objectContaining({ examIds: ['x1'], personId: 'p-child' }),
    )
    fireEvent.click(within(page.element).getByText('谁看过'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalReport/shouquan-list?examId=x1&personId=p-child',
    })
  })

  it('报告详情 of a family member says whose it is; one’s own says 本人', async () => {
    report.mockResolvedValue(
      reportDetail({ owner: { personId: 'p-mum', relation: 'family', label: '父母 李*' } }),
    )
    const page = await renderPage('pages/personalReport/detail', { id: 'r1', t: 'member' })
    await flush()
    expect(within(page.element).getByText('父母 李*')).toBeTruthy()
    report.mockResolvedValue(reportDetail())
    const own = await renderPage('pages/personalReport/detail', { id: 'r1', t: 'own' })
    await flush()
    expect(within(own.element).getByText('本人')).toBeTruthy()
  })

  it('an uploaded study (报告详情 ys) can be shared too', async () => {
    exam.mockResolvedValue(UPLOADED_EXAM)
    create.mockResolvedValue(created())
    const page = await renderPage('pages/personalReport/detail-ys', { id: 'e1' })
    await flush()
    fireEvent.click(within(page.element).getByText('授权'))
    await waitFor(() => expect(sheet()).toBeTruthy())
    fireEvent.click(within(sheet()).getByText('生成链接'))
    await flush()
    expect(create).toHaveBeenCalledWith(expect.objectContaining({ examIds: ['e1'], reportIds: [] }))
    fireEvent.click(within(page.element).getByText('谁看过'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalReport/shouquan-list?examId=e1',
    })
  })
})
