import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { HttpError } from '@/services/http'
import { getVideo, listVideos, saveVideoPosition, type VideoDetail } from '@/services/content'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/content', () => ({
  ...jest.requireActual<typeof import('@/services/content')>('@/services/content'),
  listVideos: jest.fn(),
  getVideo: jest.fn(),
  saveVideoPosition: jest.fn(),
}))

function video(overrides: Partial<VideoDetail> = {}): VideoDetail {
  return {
    id: 'v1',
    category: 'firstAid',
    title: '心肺复苏的要点（演示）',
    summary: '演示视频：识别、呼救、按压、除颤。',
    posterPath: '/media/p1',
    durationSeconds: 65,
    publishedAt: '2026-11-20T02:00:00.000Z',
    playCount: 4,
    demo: true,
    videoPath: '/media/v1file',
    mimeType: 'video/mp4',
    resumeAt: 0,
    favourited: false,
    ...overrides,
  }
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.mocked(saveVideoPosition).mockResolvedValue()
})

function player(): HTMLElement {
  const element = document.querySelector<HTMLElement>('.video__player')
  if (!element) throw new Error('no player')
  return element
}

describe('急救讲堂 (videoShowJJ)', () => {
  it('lists the category with poster duration and a 演示 tag; a tap opens the player page', async () => {
    jest.mocked(listVideos).mockResolvedValue({ items: [video()], total: 1, page: 1, pageSize: 10 })
    await renderPage('pages/videoShow/videoShowJJ')
    expect(await screen.findByText('心肺复苏的要点（演示）')).toBeTruthy()
    expect(screen.getByText('1:05')).toBeTruthy()
    expect(screen.getByText('演示')).toBeTruthy()
    expect(listVideos).toHaveBeenCalledWith({ category: 'firstAid', page: 1, pageSize: 10 })
    fireEvent.click(screen.getByText('心肺复苏的要点（演示）'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/videoShow/videoShowDetail?id=v1' })
  })
})

describe('视频详情 (videoShowDetail)', () => {
  it('starts where the viewer stopped and saves the position every few seconds and on pause', async () => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    jest.mocked(getVideo).mockResolvedValue(video({ resumeAt: 20 }))
    await renderPage('pages/videoShow/videoShowDetail', { id: 'v1' })
    expect(await screen.findByText('上次看到 0:20')).toBeTruthy()
    expect(
      player().getAttribute('initial-time') ??
        String((player() as unknown as { initialTime: number }).initialTime),
    ).toBe('20')
    const time = (currentTime: number) =>
      fireEvent(player(), new CustomEvent('timeupdate', { detail: { currentTime, duration: 65 } }))
    time(21)
    time(23)
    expect(saveVideoPosition).not.toHaveBeenCalled()
    time(25.4)
    expect(saveVideoPosition).toHaveBeenLastCalledWith('v1', 25)
    time(27)
    fireEvent(player(), new CustomEvent('pause', { detail: {} }))
    expect(saveVideoPosition).toHaveBeenLastCalledWith('v1', 27)
    expect(saveVideoPosition).toHaveBeenCalledTimes(2)
  })

  it('signed out: plays from the start and saves nothing', async () => {
    jest.mocked(getVideo).mockResolvedValue(video())
    await renderPage('pages/videoShow/videoShowDetail', { id: 'v1' })
    await screen.findByText('心肺复苏的要点（演示）')
    fireEvent(
      player(),
      new CustomEvent('timeupdate', { detail: { currentTime: 30, duration: 65 } }),
    )
    fireEvent(player(), new CustomEvent('pause', { detail: {} }))
    expect(saveVideoPosition).not.toHaveBeenCalled()
  })

  it('a video that cannot play says so instead of a black box', async () => {
    jest.mocked(getVideo).mockResolvedValue(video())
    await renderPage('pages/videoShow/videoShowDetail', { id: 'v1' })
    await screen.findByText('心肺复苏的要点（演示）')
    fireEvent(
      player(),
      new CustomEvent('error', { detail: { errMsg: 'MEDIA_ERR_SRC_NOT_SUPPORTED' } }),
    )
    expect(await screen.findByText('视频暂时无法播放，请稍后重试')).toBeTruthy()
    await waitFor(() => expect(document.querySelector('.video__player')).toBeNull())
  })

  it.each(['pages/videoShow/videoShowDetail', 'pages/videoShow/videoShowYsDetail'])(
    '%s without an id says the video does not exist and offers 返回, no 重试',
    async (path) => {
      const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
      await renderPage(path)
      expect(await screen.findByText('视频不存在或已下架')).toBeTruthy()
      expect(screen.queryByText('重试')).toBeNull()
      expect(getVideo).not.toHaveBeenCalled()
      fireEvent.click(screen.getByText('返回'))
      await waitFor(() => expect(switchTab).toHaveBeenCalledWith({ url: '/pages/main/main' }))
    },
  )

  it('a video the server does not have (404) says so without 重试', async () => {
    jest.mocked(getVideo).mockRejectedValue(
      new HttpError(
        {
          statusCode: 404,
          header: {},
          data: { code: 404, message: 'Not Found', data: null, error: '视频不存在或已下架' },
        },
        'business',
      ),
    )
    await renderPage('pages/videoShow/videoShowDetail', { id: 'gone' })
    expect(await screen.findByText('视频不存在或已下架')).toBeTruthy()
    expect(screen.queryByText('重试')).toBeNull()
  })

  it('a failed load keeps 重试', async () => {
    jest.mocked(getVideo).mockRejectedValue(new Error('offline'))
    await renderPage('pages/videoShow/videoShowDetail', { id: 'v1' })
    expect(await screen.findByText('视频加载失败，请稍后重试')).toBeTruthy()
    expect(screen.getByText('重试')).toBeTruthy()
  })
})
