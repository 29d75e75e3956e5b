import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  addFavourite,
  type Favourite,
  listFavourites,
  removeFavourite,
} from '@/services/favourites'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/favourites', () => ({
  ...jest.requireActual<typeof import('@/services/favourites')>('@/services/favourites'),
  listFavourites: jest.fn(),
  addFavourite: jest.fn(),
  removeFavourite: jest.fn(),
}))

const TOTALS = { article: 1, video: 1, hospital: 0, exam: 0, expert: 0, question: 0 }

function item(kind: Favourite['kind'], title: string): Favourite {
  return {
    kind,
    targetId: `${kind}-1`,
    title,
    subtitle: kind === 'article' ? '疾病科普' : '时长 0:06',
    picturePath: null,
    createdAt: new Date(Date.now() - 3600_000).toISOString(),
    link: {
      route: kind === 'article' ? 'infoDetail' : 'videoShowDetail',
      params: { id: `${kind}-1` },
    },
  }
}

let navigateTo: jest.SpyInstance
let saved: Set<string>
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  saved = new Set(['article', 'video'])
  jest.mocked(listFavourites).mockImplementation(async (kind) => {
    const items = saved.has(kind)
      ? [item(kind, kind === 'article' ? '体检发现肺结节，先别慌' : '山药小米粥（演示）')]
      : []
    return {
      items,
      total: items.length,
      page: 1,
      pageSize: 10,
      totals: { ...TOTALS, article: saved.has('article') ? 1 : 0 },
    }
  })
  jest.mocked(removeFavourite).mockImplementation(async (kind) => void saved.delete(kind))
  jest.mocked(addFavourite).mockImplementation(async (kind) => (saved.add(kind), 1))
})

function tab(text: string): HTMLElement | undefined {
  return Array.from(document.querySelectorAll<HTMLElement>('[role=tab]')).find(
    (t) => t.textContent === text,
  )
}

describe('我的收藏 (collectList)', () => {
  it("shows tabs with counts and the server's items; a tap opens the item's page", async () => {
    await renderPage('pages/collectList/collectList')
    expect(await screen.findByText('体检发现肺结节，先别慌')).toBeTruthy()
    await waitFor(() => expect(tab('文章 1')).toBeTruthy())
    expect(tab('医院 0')).toBeTruthy()
    fireEvent.click(screen.getByText('体检发现肺结节，先别慌'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/infoDetail/infoDetail?id=article-1',
      }),
    )
    fireEvent.click(tab('视频 1')!)
    expect(await screen.findByText('山药小米粥（演示）')).toBeTruthy()
    expect(listFavourites).toHaveBeenLastCalledWith('video', 1, 10)
  })

  it('取消收藏 removes at once and 撤销 puts it back', async () => {
    await renderPage('pages/collectList/collectList')
    fireEvent.click(await screen.findByText('取消收藏'))
    expect(await screen.findByText('还没有收藏文章')).toBeTruthy()
    expect(removeFavourite).toHaveBeenCalledWith('article', 'article-1')
    expect(screen.getByText('已取消收藏“体检发现肺结节，先别慌”')).toBeTruthy()
    fireEvent.click(screen.getByText('撤销'))
    expect(await screen.findByText('体检发现肺结节，先别慌')).toBeTruthy()
    expect(addFavourite).toHaveBeenCalledWith('article', 'article-1')
    expect(screen.queryByText('撤销')).toBeNull()
  })

  it('asks a signed-out person to log in', async () => {
    resetStores()
    const page = await renderPage('pages/collectList/collectList')
    expect(page.element.textContent).toContain('登录后查看我的收藏')
  })
})
