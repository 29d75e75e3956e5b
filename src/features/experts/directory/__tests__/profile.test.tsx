import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { getExpertProfile } from '@/services/expert-profiles'
import { addFavourite, removeFavourite } from '@/services/favourites'
import { HttpError } from '@/services/http'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../../jest/taro-render'
import { expertProfile } from '../../__tests__/fixtures'

jest.mock('@/services/expert-profiles', () => ({
  ...jest.requireActual<typeof import('@/services/expert-profiles')>('@/services/expert-profiles'),
  getExpertProfile: jest.fn(),
}))
jest.mock('@/services/favourites', () => ({
  ...jest.requireActual<typeof import('@/services/favourites')>('@/services/favourites'),
  addFavourite: jest.fn(),
  removeFavourite: jest.fn(),
}))

const get = jest.mocked(getExpertProfile)

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
})

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

function favouriteButton(): HTMLElement {
  return document.querySelector<HTMLElement>('.expert-profile__favourite')!
}

describe('专家主页 (personalDetail)', () => {
  it('shows who, where, the check with its date and no number, services and an honest line for no figures', async () => {
    get.mockResolvedValue(expertProfile())
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1' })
    expect(await screen.findByText('李明华')).toBeTruthy()
    expect(get).toHaveBeenCalledWith('e1')
    const text = document.querySelector('.expert-profile')!.textContent ?? ''
    expect(text).toContain('主任医师')
    expect(text).toContain('示例市第一人民医院 · 放射科')
    expect(text).toContain('执业信息已核验 · 2026-11-20')
    expect(text).toContain('从事胸部影像诊断二十年')
    expect(text).toContain('肺癌筛查')
    expect(text).toContain('接诊中')
    expect(text).toContain('演示专家')
    expect(text).toContain('图文咨询48 小时内回复¥30')
    expect(text).toContain('影像会诊72 小时内回复¥200.50')
    // Never a certificate (or any long) number.
    expect(text).not.toMatch(/\d{6,}/)
    expect(text).not.toMatch(/证书编[码号]/)
    // No figures yet: said, not shown as zeros.
    expect(text).toContain('暂无咨询数据')
    expect(document.querySelector('.expert-profile__figures')).toBeNull()
    expect(text).not.toMatch(/已回复\s*0/)
    const consult = document.querySelectorAll('.expert-service__consult')
    expect(consult).toHaveLength(2)
    expect(consult[0].textContent).toBe('咨询')
    expect(screen.queryByText('编辑主页')).toBeNull()
  })

  it('shows the figures once there are some', async () => {
    get.mockResolvedValue(
      expertProfile({
        stats: {
          answered: 128,
          adoptionRate: 0.92,
          medianFirstAnswerMinutes: 95,
          rating: 4.86,
          ratingCount: 40,
        },
      }),
    )
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1' })
    await screen.findByText('李明华')
    const figures = document.querySelector('.expert-profile__figures')!.textContent
    expect(figures).toBe('128已回复92%采纳率1.6 小时首次回复4.9评分（40 人）')
  })

  it('收藏 moves the count both ways with the server’s answer', async () => {
    signIn()
    get.mockResolvedValue(expertProfile({ favouriteCount: 5 }))
    jest.mocked(addFavourite).mockResolvedValue(6)
    jest.mocked(removeFavourite).mockResolvedValue()
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1' })
    await screen.findByText('李明华')
    expect(favouriteButton().textContent).toBe('收藏 5')
    fireEvent.click(favouriteButton())
    await waitFor(() => expect(favouriteButton().textContent).toBe('已收藏 6'))
    expect(addFavourite).toHaveBeenCalledWith('expert', 'e1')
    expect(favouriteButton().getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(favouriteButton())
    await waitFor(() => expect(favouriteButton().textContent).toBe('收藏 5'))
    expect(removeFavourite).toHaveBeenCalledWith('expert', 'e1')
  })

  it('signed out, 收藏 goes to login and comes back to this expert', async () => {
    get.mockResolvedValue(expertProfile())
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1' })
    await screen.findByText('李明华')
    fireEvent.click(favouriteButton())
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: `/pages/login/login?redirect=${encodeURIComponent('/pages/personalDetail/personalDetail?id=e1')}`,
      }),
    )
    expect(addFavourite).not.toHaveBeenCalled()
  })

  it('the expert themself gets 编辑主页 (to 服务设置) instead of 咨询 and 收藏', async () => {
    signIn()
    get.mockResolvedValue(expertProfile({ self: true }))
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1' })
    fireEvent.click(await screen.findByText('编辑主页'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/experts/services' }),
    )
    expect(document.querySelector('.expert-service__consult')).toBeNull()
    expect(document.querySelector('.expert-profile__favourite')).toBeNull()
  })

  it('咨询 opens 选择会诊方式 for this expert, carrying a record chosen before', async () => {
    get.mockResolvedValue(expertProfile())
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1', examId: 'x9' })
    await screen.findByText('李明华')
    fireEvent.click(document.querySelector('.expert-service__consult')!)
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/middleRemote/middleRemote?expertId=e1&examId=x9',
      }),
    )
  })

  it('暂停接诊: says so, and 咨询 is visibly off', async () => {
    get.mockResolvedValue(expertProfile({ accepting: false }))
    await renderPage('pages/personalDetail/personalDetail', { id: 'e1' })
    expect(await screen.findByText('专家暂停接诊，暂不接受新的咨询')).toBeTruthy()
    const consult = document.querySelectorAll('.expert-service__consult--paused')
    expect(consult).toHaveLength(2)
    expect(consult[0].textContent).toBe('暂停接诊')
  })

  it('an expert the server does not have (or suspended) is a clear state with 返回, not 重试', async () => {
    get.mockRejectedValue(
      new HttpError(
        {
          statusCode: 404,
          data: { code: 404, message: '专家不存在或已暂停服务', data: null },
          header: {},
        },
        'status',
      ),
    )
    await renderPage('pages/personalDetail/personalDetail', { id: 'gone' })
    expect(await screen.findByText('专家不存在或已暂停服务')).toBeTruthy()
    expect(screen.getByText('返回')).toBeTruthy()
    expect(screen.queryByText('重试')).toBeNull()
  })

  it('no id at all asks nothing and says the same', async () => {
    await renderPage('pages/personalDetail/personalDetail')
    expect(await screen.findByText('专家不存在或已暂停服务')).toBeTruthy()
    expect(get).not.toHaveBeenCalled()
  })
})
