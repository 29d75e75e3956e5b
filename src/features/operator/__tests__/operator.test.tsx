import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import { UserFacingError } from '@/services/api'
import type { Feedback } from '@/services/feedback'
import { operatorApi, type OperatorArticle } from '@/services/operator'
import { refreshProfile } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/operator', () => {
  const actual = jest.requireActual<typeof import('@/services/operator')>('@/services/operator')
  const api = Object.fromEntries(Object.keys(actual.operatorApi).map((key) => [key, jest.fn()]))
  return { ...actual, operatorApi: api, uploadOperatorFile: jest.fn() }
})

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  refreshProfile: jest.fn(),
}))

const api = jest.mocked(operatorApi)

const DRAFT: OperatorArticle = {
  id: 'a1',
  typeId: 't1',
  typeName: '慢病管理',
  title: '冬季颈椎保养',
  summary: '低头久了颈椎会累',
  coverPath: null,
  publishedAt: '2026-11-20T02:00:00.000Z',
  readCount: 0,
  likeCount: 0,
  demo: false,
  html: '<p>低头久了颈椎会累</p>',
  author: null,
  source: null,
  favouriteCount: 0,
  liked: false,
  favourited: false,
  state: 'draft',
  stateLabel: '草稿',
  updatedAt: '2026-11-20T02:00:00.000Z',
  removed: [],
}

const OPEN_FEEDBACK: Feedback = {
  id: 'f1',
  type: 'suggestion',
  typeLabel: '产品建议',
  text: '希望报告页能放大字体',
  imagePaths: [],
  contact: '13800000001',
  status: 'open',
  statusLabel: '待回复',
  createdAt: '2026-11-20T02:00:00.000Z',
  reply: null,
}

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile({ ...profile(), role: 'operator' })
  jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'operator' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  api.features.mockResolvedValue([
    {
      key: 'diet',
      name: '药膳食疗',
      iconPath: '/media/icons/diet.svg',
      enabled: true,
      order: 10,
      updatedAt: '2026-11-20T02:00:00.000Z',
    },
  ])
  api.articles.mockResolvedValue({ items: [DRAFT], total: 1, page: 1, pageSize: 20 })
  api.feedback.mockResolvedValue({ items: [OPEN_FEEDBACK], total: 1, page: 1, pageSize: 20 })
  api.setArticleState.mockResolvedValue({ ...DRAFT, state: 'published', stateLabel: '已发布' })
  api.replyFeedback.mockResolvedValue({ ...OPEN_FEEDBACK, status: 'replied' })
  api.articleTypes.mockResolvedValue([{ id: 't1', name: '慢病管理', count: 1 }])
})

const VIDEO = {
  id: 'v1',
  category: 'talk' as const,
  title: '做 CT 前要准备什么',
  summary: '准备要点',
  posterPath: null,
  durationSeconds: 6,
  publishedAt: '2026-11-20T02:00:00.000Z',
  playCount: 3,
  demo: false,
  videoPath: '/media/f1',
  mimeType: 'video/mp4',
  resumeAt: 0,
  favourited: false,
  fileId: 'f1',
  state: 'published' as const,
  stateLabel: '已发布',
  updatedAt: '2026-11-20T02:00:00.000Z',
}

describe('运营后台 (operator pages, H5 only)', () => {
  it('edits a video keeping its file', async () => {
    api.videos.mockResolvedValue({ items: [VIDEO], total: 1, page: 1, pageSize: 20 })
    api.saveVideo.mockResolvedValue(VIDEO)
    await renderPage('pages/operator/index')
    fireEvent.click(await screen.findByText('视频'))
    fireEvent.click(await screen.findByText('编辑'))
    expect(await screen.findByText('修改：做 CT 前要准备什么')).toBeTruthy()
    expect(screen.getByText('保留原视频（6 秒）')).toBeTruthy()
    fireEvent.click(screen.getByText('保存修改'))
    await waitFor(() =>
      expect(api.saveVideo).toHaveBeenCalledWith({
        id: 'v1',
        category: 'talk',
        title: '做 CT 前要准备什么',
        summary: '准备要点',
        fileId: 'f1',
      }),
    )
  })

  it('tells a patient it is for operators only, with 返回 and no 重试, without an operator call', async () => {
    jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'patient' })
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/operator/index')
    expect(await screen.findByText('仅运营人员可以使用此功能')).toBeTruthy()
    expect(screen.queryByText('重试')).toBeNull()
    expect(screen.queryByText('新建文章')).toBeNull()
    // No refused request (the browser logs each as a console error) and no toast.
    expect(api.features).not.toHaveBeenCalled()
    expect(api.articles).not.toHaveBeenCalled()
    expect(Taro.showToast).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('返回'))
    await waitFor(() => expect(switchTab).toHaveBeenCalledWith({ url: '/pages/user/user' }))
  })

  it('tells a patient who opens 编辑文章 it is for operators only, without an operator call', async () => {
    jest.mocked(refreshProfile).mockResolvedValue({ ...profile(), role: 'patient' })
    await renderPage('pages/operator/article')
    expect(await screen.findByText('仅运营人员可以使用此功能')).toBeTruthy()
    expect(screen.queryByText('重试')).toBeNull()
    expect(api.articleTypes).not.toHaveBeenCalled()
    expect(api.article).not.toHaveBeenCalled()
  })

  it("shows the server's refusal when it refuses an operator call", async () => {
    api.features.mockRejectedValue(new UserFacingError('仅运营人员可以使用此功能'))
    await renderPage('pages/operator/index')
    expect(await screen.findByText('仅运营人员可以使用此功能')).toBeTruthy()
    expect(screen.queryByText('新建文章')).toBeNull()
    expect(api.articles).not.toHaveBeenCalled()
  })

  it('lists a draft and publishes it', async () => {
    await renderPage('pages/operator/index')
    expect(await screen.findByText('冬季颈椎保养')).toBeTruthy()
    expect(screen.getByText('草稿')).toBeTruthy()
    fireEvent.click(screen.getByText('发布'))
    await waitFor(() => expect(api.setArticleState).toHaveBeenCalledWith('a1', 'published'))
  })

  it('answers a feedback and adopts it; an empty reply is not sent', async () => {
    await renderPage('pages/operator/index')
    fireEvent.click(await screen.findByText('反馈'))
    expect(await screen.findByText('希望报告页能放大字体')).toBeTruthy()
    fireEvent.click(screen.getByText('回复'))
    expect(api.replyFeedback).not.toHaveBeenCalled()
    typeInto('回复内容（用户会在我的消息和意见反馈里看到）', '好的，下个版本支持')
    fireEvent.click(screen.getByText('采纳（奖励 50 积分）'))
    fireEvent.click(screen.getByText('回复'))
    await waitFor(() =>
      expect(api.replyFeedback).toHaveBeenCalledWith('f1', '好的，下个版本支持', true),
    )
  })

  it('the editor shows what the sanitiser removed at the last save', async () => {
    api.article.mockResolvedValue({ ...DRAFT, removed: ['<script>', 'p[onclick]'] })
    await renderPage('pages/operator/article?id=a1')
    expect(await screen.findByText('上次保存时已移除：<script>、p[onclick]')).toBeTruthy()
    expect(screen.getByText(/当前状态/)).toBeTruthy()
  })
})
