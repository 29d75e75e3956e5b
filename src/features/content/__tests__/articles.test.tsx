import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { HttpError } from '@/services/http'
import {
  addArticleRead,
  type ArticleDetail,
  type ArticleSummary,
  getArticle,
  likeArticle,
  listArticles,
  listArticleTypes,
} from '@/services/content'
import { addFavourite } from '@/services/favourites'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/content', () => ({
  ...jest.requireActual<typeof import('@/services/content')>('@/services/content'),
  listArticleTypes: jest.fn(),
  listArticles: jest.fn(),
  getArticle: jest.fn(),
  addArticleRead: jest.fn(),
  likeArticle: jest.fn(),
}))
jest.mock('@/services/favourites', () => ({
  ...jest.requireActual<typeof import('@/services/favourites')>('@/services/favourites'),
  addFavourite: jest.fn(),
  removeFavourite: jest.fn(),
}))

function summary(n: number, overrides: Partial<ArticleSummary> = {}): ArticleSummary {
  return {
    id: `a${n}`,
    typeId: 't1',
    typeName: '疾病科普',
    title: `文章标题 ${n}`,
    summary: `文章摘要 ${n}`,
    coverPath: null,
    publishedAt: '2026-11-20T02:00:00.000Z',
    readCount: 12,
    likeCount: 3,
    demo: true,
    ...overrides,
  }
}

function detail(overrides: Partial<ArticleDetail> = {}): ArticleDetail {
  return {
    ...summary(1),
    html: '<h2>大多数肺结节是良性的</h2><p>按时复查。</p><img src="/media/cover1">',
    author: null,
    source: '医影通编辑部（演示内容）',
    favouriteCount: 5,
    liked: false,
    favourited: false,
    ...overrides,
  }
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.mocked(addArticleRead).mockResolvedValue({ readCount: 13, counted: true })
})

describe('健康资讯 (infoList)', () => {
  it("shows 全部 and the server's types; a tab lists only its articles; a tap opens the article", async () => {
    jest.mocked(listArticleTypes).mockResolvedValue([
      { id: 't1', name: '疾病科普', count: 7 },
      { id: 't2', name: '急救常识', count: 6 },
    ])
    jest.mocked(listArticles).mockImplementation(async (query) => ({
      items:
        query.typeId === 't2'
          ? [summary(9, { title: '心肺复苏要点', typeName: '急救常识' })]
          : [summary(1), summary(2)],
      total: query.typeId === 't2' ? 1 : 2,
      page: 1,
      pageSize: 10,
    }))
    await renderPage('pages/infoList/infoList')
    expect(await screen.findByText('文章标题 1')).toBeTruthy()
    expect(screen.getAllByText('演示')).toHaveLength(2)
    expect(screen.getAllByText('阅读 12')).toHaveLength(2)
    expect(await screen.findByRole('tab', { name: '急救常识' })).toBeTruthy()
    fireEvent.click(screen.getByRole('tab', { name: '急救常识' }))
    expect(await screen.findByText('心肺复苏要点')).toBeTruthy()
    expect(screen.queryByText('文章标题 1')).toBeNull()
    expect(listArticles).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, typeId: 't2' })
    fireEvent.click(screen.getByText('心肺复苏要点'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/infoDetail/infoDetail?id=a9' })
  })

  it('an empty type says so', async () => {
    jest.mocked(listArticleTypes).mockResolvedValue([])
    jest.mocked(listArticles).mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10 })
    await renderPage('pages/infoList/infoList')
    expect(await screen.findByText('暂无资讯')).toBeTruthy()
  })
})

describe('资讯详情 (infoDetail)', () => {
  it('renders the body, counts the read once, and shows the demo note and the source', async () => {
    jest.mocked(getArticle).mockResolvedValue(detail())
    const page = await renderPage('pages/infoDetail/infoDetail', { id: 'a1' })
    expect(await screen.findByText('文章标题 1')).toBeTruthy()
    await waitFor(() => expect(page.element.textContent).toContain('大多数肺结节是良性的'))
    expect(screen.getByText('来源：医影通编辑部（演示内容）')).toBeTruthy()
    expect(page.element.textContent).toContain('演示内容')
    await waitFor(() => expect(screen.getByText('阅读 13')).toBeTruthy())
    expect(addArticleRead).toHaveBeenCalledTimes(1)
    expect(addArticleRead).toHaveBeenCalledWith('a1')
  })

  it('赞 counts once under a double tap; 收藏 shows the server count; signed out goes to login', async () => {
    jest.mocked(getArticle).mockResolvedValue(detail())
    await renderPage('pages/infoDetail/infoDetail', { id: 'a1' })
    fireEvent.click(await screen.findByText('赞 3'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/infoDetail/infoDetail?id=a1')}`,
    })
    expect(likeArticle).not.toHaveBeenCalled()

    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    let answer: (value: { liked: boolean; likeCount: number }) => void = () => undefined
    jest.mocked(likeArticle).mockImplementation(() => new Promise((resolve) => (answer = resolve)))
    const like = await screen.findByText('赞 3')
    fireEvent.click(like)
    fireEvent.click(screen.getByText('已赞 4'))
    expect(likeArticle).toHaveBeenCalledTimes(1)
    expect(likeArticle).toHaveBeenCalledWith('a1', true)
    answer({ liked: true, likeCount: 4 })
    expect(await screen.findByText('已赞 4')).toBeTruthy()

    jest.mocked(addFavourite).mockResolvedValue(9)
    fireEvent.click(screen.getByText('收藏 5'))
    expect(await screen.findByText('已收藏 9')).toBeTruthy()
    expect(addFavourite).toHaveBeenCalledWith('article', 'a1')
  })

  it("a refused like is put back with the server's reason", async () => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    jest.mocked(getArticle).mockResolvedValue(detail())
    jest.mocked(likeArticle).mockRejectedValue(new Error('offline'))
    await renderPage('pages/infoDetail/infoDetail', { id: 'a1' })
    fireEvent.click(await screen.findByText('赞 3'))
    expect(await screen.findByText('赞 3')).toBeTruthy()
  })

  it('a failed load says so with 重试', async () => {
    jest.mocked(getArticle).mockRejectedValueOnce(new Error('offline')).mockResolvedValue(detail())
    await renderPage('pages/infoDetail/infoDetail', { id: 'a1' })
    expect(await screen.findByText('文章加载失败，请稍后重试')).toBeTruthy()
    fireEvent.click(screen.getByText('重试'))
    expect(await screen.findByText('文章标题 1')).toBeTruthy()
  })

  it('without an id it says the article does not exist and offers 返回 (home when opened first), no 重试', async () => {
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/infoDetail/infoDetail')
    expect(await screen.findByText('文章不存在或已下架')).toBeTruthy()
    expect(screen.queryByText('重试')).toBeNull()
    expect(screen.queryByText(/加载失败/)).toBeNull()
    expect(getArticle).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('返回'))
    await waitFor(() => expect(switchTab).toHaveBeenCalledWith({ url: '/pages/main/main' }))
  })

  it('an article the server does not have (404) says so without 重试', async () => {
    jest.mocked(getArticle).mockRejectedValue(
      new HttpError(
        {
          statusCode: 404,
          header: {},
          data: { code: 404, message: 'Not Found', data: null, error: '文章不存在或已下架' },
        },
        'business',
      ),
    )
    await renderPage('pages/infoDetail/infoDetail', { id: 'zz' })
    expect(await screen.findByText('文章不存在或已下架')).toBeTruthy()
    expect(screen.queryByText('重试')).toBeNull()
    expect(screen.getByText('返回')).toBeTruthy()
  })
})
