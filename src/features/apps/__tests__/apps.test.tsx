import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { type AppFeature, getPoints, listFeatures } from '@/services/apps'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/apps', () => ({
  ...jest.requireActual<typeof import('@/services/apps')>('@/services/apps'),
  listFeatures: jest.fn(),
  getPoints: jest.fn(),
}))

const feature = (key: string, name: string, route: string, order: number): AppFeature => ({
  key,
  name,
  iconPath: `/media/icons/${key}.svg`,
  link: { route, params: {} },
  order,
})

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest
    .mocked(listFeatures)
    .mockResolvedValue([
      feature('feedback', '意见反馈', 'feedback', 1),
      feature('articles', '健康资讯', 'infoList', 10),
    ])
})

describe('应用中心 (integration)', () => {
  it("shows the server's features in its order and opens one", async () => {
    await renderPage('pages/integration/integration')
    await screen.findByText('意见反馈')
    const names = Array.from(document.querySelectorAll('.apps__name')).map((n) => n.textContent)
    expect(names).toEqual(['意见反馈', '健康资讯'])
    fireEvent.click(screen.getByText('健康资讯'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/infoList/infoList' }),
    )
    expect(getPoints).not.toHaveBeenCalled()
    expect(screen.getByText('登录查看积分')).toBeTruthy()
  })

  it('signed in: the balance and how the points were earned', async () => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    jest.mocked(getPoints).mockResolvedValue({
      items: [
        {
          id: 'p2',
          reason: 'feedbackAdopted',
          reasonLabel: '反馈被采纳',
          delta: 50,
          balanceAfter: 51,
          at: '2026-11-21T02:00:00.000Z',
        },
        {
          id: 'p1',
          reason: 'read',
          reasonLabel: '阅读文章',
          delta: 1,
          balanceAfter: 1,
          at: '2026-11-20T02:00:00.000Z',
        },
      ],
      total: 2,
      page: 1,
      pageSize: 10,
      balance: 51,
    })
    await renderPage('pages/integration/integration')
    expect(await screen.findByText('51')).toBeTruthy()
    expect(screen.getByText('+50')).toBeTruthy()
    expect(screen.getByText('阅读文章')).toBeTruthy()
  })
})
