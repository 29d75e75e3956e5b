import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import * as routes from '@/routes'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  deleteMessage,
  getMessage,
  listMessages,
  markAllMessagesRead,
  type Message,
} from '@/services/messages'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'
import { linkTarget } from '../link'

jest.mock('@/services/messages', () => ({
  ...jest.requireActual<typeof import('@/services/messages')>('@/services/messages'),
  listMessages: jest.fn(),
  getMessage: jest.fn(),
  markAllMessagesRead: jest.fn(),
  deleteMessage: jest.fn(),
}))

const NOW = Date.now()

function message(n: number, overrides: Partial<Message> = {}): Message {
  return {
    id: `m${n}`,
    kind: 'grant',
    kindLabel: '授权提醒',
    title: `您分享的影像已被查看 ${n}`,
    body: '分享访客 于 成都市 查看了 胸部 CT 平扫',
    read: false,
    createdAt: new Date(NOW - 10 * 60 * 1000).toISOString(),
    link: { route: 'grantList', params: { grantId: 'g1' } },
    ...overrides,
  }
}

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

let navigateTo: jest.SpyInstance
let modal: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  modal = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('我的消息 (msg/list)', () => {
  it('asks a signed-out person to log in and calls nothing', async () => {
    const page = await renderPage('pages/msg/list')
    expect(page.element.textContent).toContain('登录后查看我的消息')
    expect(listMessages).not.toHaveBeenCalled()
  })

  it('lists messages with kind, relative time and unread dot; opens one; 全部已读; 删除 after confirming', async () => {
    signIn()
    jest.mocked(listMessages).mockResolvedValue({
      items: [
        message(1),
        message(2, {
          kind: 'system',
          kindLabel: '系统消息',
          read: true,
          createdAt: new Date(NOW - 3 * 24 * 3600 * 1000).toISOString(),
          link: null,
        }),
      ],
      total: 2,
      page: 1,
      pageSize: 10,
      unread: 1,
    })
    await renderPage('pages/msg/list')
    expect(await screen.findByText('您分享的影像已被查看 1')).toBeTruthy()
    expect(
      Array.from(document.querySelectorAll('.messages__kind')).map((k) => k.textContent),
    ).toEqual(['授权提醒', '系统消息'])
    expect(screen.getByText('10分钟前')).toBeTruthy()
    expect(screen.getByText('3天前')).toBeTruthy()
    expect(screen.getByText('1 条未读')).toBeTruthy()
    expect(document.querySelectorAll('.messages__dot')).toHaveLength(1)

    fireEvent.click(screen.getByText('您分享的影像已被查看 1'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/message/detail?id=m1' })

    jest.mocked(markAllMessagesRead).mockResolvedValue()
    jest.mocked(listMessages).mockResolvedValue({
      items: [message(1, { read: true })],
      total: 1,
      page: 1,
      pageSize: 10,
      unread: 0,
    })
    fireEvent.click(screen.getByText('全部已读'))
    expect(await screen.findByText('没有未读消息')).toBeTruthy()
    expect(document.querySelectorAll('.messages__dot')).toHaveLength(0)

    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'ok' })
    fireEvent.click(screen.getByText('删除'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(deleteMessage).not.toHaveBeenCalled()
    jest.mocked(deleteMessage).mockResolvedValue()
    jest
      .mocked(listMessages)
      .mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10, unread: 0 })
    fireEvent.click(screen.getByText('删除'))
    await waitFor(() => expect(deleteMessage).toHaveBeenCalledWith('m1'))
    expect(await screen.findByText('暂无消息')).toBeTruthy()
  })
})

describe('我的消息 tabs', () => {
  it('a kind tab lists that kind only', async () => {
    signIn()
    jest
      .mocked(listMessages)
      .mockResolvedValue({ items: [message(1)], total: 1, page: 1, pageSize: 10, unread: 1 })
    await renderPage('pages/msg/list')
    await screen.findByText('您分享的影像已被查看 1')
    const tab = Array.from(document.querySelectorAll<HTMLElement>('[role=tab]')).find(
      (t) => t.textContent === '系统消息',
    )!
    jest
      .mocked(listMessages)
      .mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10, unread: 1 })
    fireEvent.click(tab)
    expect(await screen.findByText('暂无消息')).toBeTruthy()
    expect(listMessages).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, kind: 'system' })
  })
})

describe('消息详情 (message/detail)', () => {
  it('shows the message (the server marks it read) and 查看 opens its page', async () => {
    signIn()
    jest.mocked(getMessage).mockResolvedValue(message(1, { read: true }))
    await renderPage('pages/message/detail', { id: 'm1' })
    expect(await screen.findByText('分享访客 于 成都市 查看了 胸部 CT 平扫')).toBeTruthy()
    expect(getMessage).toHaveBeenCalledWith('m1')
    fireEvent.click(screen.getByText('查看'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalReport/shouquan-list?grantId=g1',
    })
  })

  it('offers no 查看 for a message that points nowhere we can open', async () => {
    signIn()
    jest.mocked(getMessage).mockResolvedValue(message(1, { link: { route: 'nope', params: {} } }))
    await renderPage('pages/message/detail', { id: 'm1' })
    await screen.findByText('分享访客 于 成都市 查看了 胸部 CT 平扫')
    expect(screen.queryByText('查看')).toBeNull()
  })

  it('links only to real, built pages', () => {
    expect(linkTarget(null)).toBeNull()
    expect(linkTarget({ route: 'nope', params: {} })).toBeNull()
    // A page still under construction is not offered (none is today: pretend one is).
    const comingSoon = jest
      .spyOn(routes, 'isComingSoon')
      .mockImplementation((name) => name === 'report')
    expect(linkTarget({ route: 'report', params: {} })).toBeNull()
    comingSoon.mockRestore()
    expect(linkTarget({ route: 'report', params: {} })).toBe('/pages/report/report')
    expect(linkTarget({ route: 'imageDetail', params: { id: 'x 1' } })).toBe(
      '/pages/personalImage/detail?id=x%201',
    )
  })
})
