import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  clearSearchHistory,
  listHotSearches,
  listSearchHistory,
  search,
  type SearchAnswer,
} from '@/services/content'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { typeInto } from '@/components/form/__tests__/inputs'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/content', () => ({
  ...jest.requireActual<typeof import('@/services/content')>('@/services/content'),
  search: jest.fn(),
  listSearchHistory: jest.fn(),
  clearSearchHistory: jest.fn(),
  listHotSearches: jest.fn(),
}))

const ANSWER: SearchAnswer = {
  hits: [
    {
      kind: 'article',
      id: 'a1',
      title: [
        ['磨玻璃', false],
        ['肺结节', true],
        ['是怎么回事', false],
      ],
      snippet: [
        ['第一次发现的磨玻璃', false],
        ['肺结节', true],
      ],
      link: { route: 'infoDetail', params: { id: 'a1' } },
    },
    {
      kind: 'video',
      id: 'v1',
      title: [
        ['体检发现', false],
        ['肺结节', true],
        ['怎么办', false],
      ],
      snippet: [['演示视频', false]],
      link: { route: 'videoShowDetail', params: { id: 'v1' } },
    },
  ],
  totals: { article: 12, video: 1, hospital: 0, expert: 0 },
}

let navigateTo: jest.SpyInstance
let toast: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.mocked(listHotSearches).mockResolvedValue(['体检报告', '甲状腺结节'])
  jest.mocked(listSearchHistory).mockResolvedValue([])
  jest.mocked(search).mockResolvedValue(ANSWER)
})

/** A tab by its text (title and count): the tabs' names come from Taro text elements. */
function tab(text: string): HTMLElement | undefined {
  return Array.from(document.querySelectorAll<HTMLElement>('[role=tab]')).find(
    (t) => t.textContent === text,
  )
}

function go() {
  fireEvent.click(document.querySelector('.search__go')!)
}

function type(text: string) {
  typeInto('搜索文章、视频、医院、专家', text)
}

describe('搜索 (search)', () => {
  it('searches from a hot word; shows totals per kind and the matches highlighted; a hit opens its page', async () => {
    await renderPage('pages/search/search')
    fireEvent.click(await screen.findByText('体检报告'))
    await waitFor(() => expect(search).toHaveBeenCalledWith({ q: '体检报告' }))
    await waitFor(() => expect(document.querySelector('.search__hit')).toBeTruthy())
    expect(tab('文章 12')).toBeTruthy()
    const marks = Array.from(document.querySelectorAll('.search__mark')).map((m) => m.textContent)
    expect(marks).toEqual(['肺结节', '肺结节', '肺结节'])
    expect(document.querySelector('.search__hit-title')?.textContent).toBe('磨玻璃肺结节是怎么回事')
    fireEvent.click(screen.getByText('第一次发现的磨玻璃'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/infoDetail/infoDetail?id=a1' }),
    )
  })

  it('a kind tab pages through that kind only', async () => {
    await renderPage('pages/search/search')
    type('肺结节')
    go()
    await waitFor(() => expect(tab('视频 1')).toBeTruthy())
    fireEvent.click(tab('视频 1')!)
    await waitFor(() =>
      expect(search).toHaveBeenLastCalledWith({
        q: '肺结节',
        kind: 'video',
        page: 1,
        pageSize: 10,
      }),
    )
  })

  it('an empty query is refused with a message and sends nothing; nothing found says so', async () => {
    await renderPage('pages/search/search')
    type('   ')
    go()
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '请输入要搜索的内容' }))
    expect(search).not.toHaveBeenCalled()
    jest
      .mocked(search)
      .mockResolvedValue({ hits: [], totals: { article: 0, video: 0, hospital: 0, expert: 0 } })
    type('无此内容')
    go()
    expect(await screen.findByText('没有找到与“无此内容”相关的内容')).toBeTruthy()
  })

  it('signed in: own history, one entry removed, then all', async () => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    jest.mocked(listSearchHistory).mockResolvedValue([
      { id: 'h1', q: '肺结节', at: '2026-11-23T01:00:00.000Z' },
      { id: 'h2', q: 'CT', at: '2026-11-23T00:00:00.000Z' },
    ])
    jest.mocked(clearSearchHistory).mockResolvedValue()
    await renderPage('pages/search/search')
    expect(await screen.findByText('搜索记录')).toBeTruthy()
    fireEvent.click(screen.getByLabelText('删除搜索记录 CT'))
    await waitFor(() => expect(screen.queryByText('CT')).toBeNull())
    expect(clearSearchHistory).toHaveBeenCalledWith('h2')
    fireEvent.click(screen.getByText('清空'))
    await waitFor(() => expect(screen.queryByText('搜索记录')).toBeNull())
    expect(clearSearchHistory).toHaveBeenLastCalledWith(undefined)
  })
})
