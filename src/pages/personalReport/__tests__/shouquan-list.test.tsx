import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { cancelGrant, listGrants, listGrantViews, listRecordViews } from '@/services/grants'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { grant, grantRecord, view } from '../../../features/sharing/owner/__tests__/fixtures'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/grants', () => ({
  ...jest.requireActual<typeof import('@/services/grants')>('@/services/grants'),
  listGrants: jest.fn(),
  cancelGrant: jest.fn(),
  listGrantViews: jest.fn(),
  listRecordViews: jest.fn(),
}))

const list = jest.mocked(listGrants)
const cancel = jest.mocked(cancelGrant)
const grantViews = jest.mocked(listGrantViews)
const recordViews = jest.mocked(listRecordViews)

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

let modal: jest.SpyInstance
beforeEach(() => {
  jest.clearAllMocks()
  resetStores()
  modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({
    confirm: true,
    cancel: false,
    errMsg: 'showModal:ok',
  })
})
afterEach(() => modal.mockRestore())

const LINK = grant(1, {
  records: [grantRecord(), grantRecord({ kind: 'report', id: 'r1', private: true })],
  maxViews: 3,
  views: 2,
  opens: 1,
  lastViewAt: '2026-11-23T04:05:00.000Z',
})
const ACCOUNT = grant(2, {
  audience: 'account',
  pickupCode: false,
  status: 'expired',
  statusLabel: '已过期',
  grantee: { userId: 'u2', nameMasked: '李*', mobileMasked: '139****0002', role: 'expert' },
})

describe('授权记录 (personalReport/shouquan-list)', () => {
  it('asks a signed-out person to log in', async () => {
    const shown = await renderPage('pages/personalReport/shouquan-list')
    expect(shown.element.textContent).toContain('登录后才能查看授权记录')
    expect(list).not.toHaveBeenCalled()
  })

  it('lists each grant: what, to whom, status, views, last view, expiry', async () => {
    signIn()
    list.mockResolvedValue([LINK, ACCOUNT])
    const shown = await renderPage('pages/personalReport/shouquan-list')
    await flush()
    expect(list).toHaveBeenCalledWith({ examId: undefined, personId: undefined })
    expect(recordViews).not.toHaveBeenCalled()
    const text = shown.element.textContent ?? ''
    expect(text).toContain('链接（需提取码） · 限 3 次')
    expect(text).toContain('影像 · 胸部 CT 平扫（2026-11-20）')
    expect(text).toContain('报告 · 胸部 CT 平扫（2026-11-20） · 隐私')
    expect(text).toContain('已查看 2 次 · 已打开 1 次 · 最近 2026-11-23 12:05')
    expect(text).toContain('有效期至 2026-11-24 10:00')
    expect(text).toContain('医生/专家 李* 139****0002')
    expect(text).toContain('已过期')
    expect(text).toContain('尚未查看')
    // Only an active grant can be revoked.
    expect(screen.getAllByText('撤销')).toHaveLength(1)
  })

  it('撤销 asks first, then shows the grant as revoked', async () => {
    signIn()
    list.mockResolvedValue([LINK])
    const shown = await renderPage('pages/personalReport/shouquan-list')
    await flush()
    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByText('撤销'))
    await flush()
    expect(modal).toHaveBeenCalledWith(
      expect.objectContaining({
        title: '撤销授权',
        content: expect.stringContaining('链接立即失效'),
      }),
    )
    expect(cancel).not.toHaveBeenCalled()
    // Revoking does not open the view log (the card's tap).
    expect(grantViews).not.toHaveBeenCalled()
    cancel.mockResolvedValue({
      ...LINK,
      status: 'revoked',
      statusLabel: '已撤销',
      revokedAt: '2026-11-23T06:00:00.000Z',
    })
    fireEvent.click(screen.getByText('撤销'))
    await flush()
    expect(cancel).toHaveBeenCalledWith('g1')
    await waitFor(() => expect(shown.element.textContent).toContain('已撤销'))
    expect(shown.element.textContent).toContain('撤销于 2026-11-23 14:00')
    expect(screen.queryByText('撤销')).toBeNull()
  })

  it('a tapped grant shows its view log: who, when, what, where', async () => {
    signIn()
    list.mockResolvedValue([LINK])
    grantViews.mockResolvedValue([
      view(4, { place: '北京市' }),
      view(3, {
        viewer: '李*',
        viewerKind: 'account',
        record: grantRecord({ kind: 'report', id: 'r1' }),
        lastAt: '2026-11-23T03:00:00.000Z',
        firstAt: '2026-11-23T03:00:00.000Z',
        place: '未知位置',
      }),
    ])
    await renderPage('pages/personalReport/shouquan-list')
    await flush()
    fireEvent.click(screen.getByText('查看记录 ›'))
    await flush()
    expect(grantViews).toHaveBeenCalledWith('g1')
    const items = await screen.findAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(within(items[0]!).getByText('分享访客')).toBeTruthy()
    expect(items[0]!.textContent).toContain('北京市')
    expect(items[0]!.textContent).toContain('2026-11-23 12:00 至 12:05')
    expect(items[1]!.textContent).toContain('李*')
    expect(items[1]!.textContent).toContain('报告 · 胸部 CT 平扫')
    expect(items[1]!.textContent).toContain('未知位置')
  })

  it('for one exam: its 谁看过 first, then its grants', async () => {
    signIn()
    list.mockResolvedValue([])
    recordViews.mockResolvedValue([view(5, { viewer: '李*', viewerKind: 'account' })])
    const shown = await renderPage('pages/personalReport/shouquan-list', { examId: 'x1' })
    await flush()
    expect(list).toHaveBeenCalledWith({ examId: 'x1', personId: undefined })
    expect(recordViews).toHaveBeenCalledWith('x1')
    const text = shown.element.textContent ?? ''
    expect(text).toContain('谁看过')
    expect(text).toContain('李*')
    expect(text).toContain('这次检查还没有授权给任何人')
  })

  it('says why the list could not load, and 重试 asks again', async () => {
    signIn()
    list.mockRejectedValue(new Error('offline'))
    const shown = await renderPage('pages/personalReport/shouquan-list')
    await flush()
    await waitFor(() => expect(shown.element.textContent).toContain('加载失败'))
    list.mockResolvedValue([])
    fireEvent.click(within(shown.element).getByText('重试'))
    await flush()
    expect(shown.element.textContent).toContain('还没有授权记录')
  })
})
