import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { type Favourite, listFavourites } from '@/services/favourites'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/favourites', () => ({
  ...jest.requireActual<typeof import('@/services/favourites')>('@/services/favourites'),
  listFavourites: jest.fn(),
}))

/** What the server writes for a favourited expert (issue 20). */
const EXPERT: Favourite = {
  kind: 'expert',
  targetId: 'e1',
  title: '李明华 主任医师',
  subtitle: '示例市第一人民医院 · 放射科',
  picturePath: null,
  createdAt: new Date(Date.now() - 3600_000).toISOString(),
  link: { route: 'personalDetail', params: { id: 'e1' } },
}

describe('我的收藏: the 专家 tab', () => {
  it('lists favourited experts under 专家 and a tap opens the profile', async () => {
    resetStores()
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    jest.mocked(listFavourites).mockImplementation(async (kind) => ({
      items: kind === 'expert' ? [EXPERT] : [],
      total: kind === 'expert' ? 1 : 0,
      page: 1,
      pageSize: 10,
      totals: { article: 0, video: 0, hospital: 0, exam: 0, expert: 1, question: 0 },
    }))
    await renderPage('pages/collectList/collectList')
    const tab = await waitFor(() => {
      const found = Array.from(document.querySelectorAll<HTMLElement>('[role=tab]')).find(
        (t) => t.textContent === '专家 1',
      )
      if (!found) throw new Error('no 专家 tab')
      return found
    })
    fireEvent.click(tab)
    fireEvent.click(await screen.findByText('李明华 主任医师'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/personalDetail/personalDetail?id=e1',
      }),
    )
  })
})
