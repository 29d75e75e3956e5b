import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { UserProfile } from '@contract/sso/auth'
import { routeByName } from '@/routes'
import { signOut } from '@/services/auth'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { SetupView } from '../components/setup-view'
import { SETUP_GROUPS } from '../entries'
import { useSetup } from '../hooks/use-setup'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  signOut: jest.fn(),
}))

const PROFILE: UserProfile = {
  id: 'u1',
  mobileMasked: '138****0001',
  nickname: '张三',
  avatarUrl: null,
  role: 'patient',
  realNameVerified: false,
  idCardStatus: 'bound',
  hasPassword: true,
  wechatBound: false,
  createdAt: '2026-01-01T00:00:00.000Z',
}

function Page() {
  return <SetupView model={useSetup()} />
}

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

describe('设置', () => {
  let modal: jest.SpyInstance
  let switchTab: jest.SpyInstance
  let navigateTo: jest.SpyInstance
  beforeEach(() => {
    resetStores()
    modal = jest.spyOn(Taro, 'showModal')
    switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'switchTab:ok' })
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
    jest.mocked(signOut).mockResolvedValue(undefined)
  })

  it('links only to routes of the spec', async () => {
    for (const entry of SETUP_GROUPS.flat()) expect(routeByName(entry.route)).toBeDefined()
  })

  it('shows the masked phone and real-name state, and opens entries', async () => {
    useAppStore.getState().setProfile(PROFILE)
    await renderComponent(<Page />)
    expect(screen.getByText('138****0001')).toBeTruthy()
    expect(screen.getByText('已绑定')).toBeTruthy()
    fireEvent.click(screen.getByText('通知设置'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/user/notice' })
  })

  it('signs out only after the person confirms, then shows 我的', async () => {
    useAppStore.getState().setProfile(PROFILE)
    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'showModal:ok' })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('退出登录'))
    await flush()
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '退出登录' }))
    expect(signOut).not.toHaveBeenCalled()

    modal.mockResolvedValueOnce({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
    fireEvent.click(screen.getByText('退出登录'))
    await flush()
    expect(signOut).toHaveBeenCalledTimes(1)
    expect(switchTab).toHaveBeenCalledWith({ url: '/pages/user/user' })
  })

  it('signed out: no 退出登录 or 注销账号, and account entries go through login', async () => {
    await renderComponent(<Page />)
    expect(screen.queryByText('退出登录')).toBeNull()
    expect(screen.queryByText('注销账号')).toBeNull()
    fireEvent.click(screen.getByText('个人信息'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/userInfo/userInfo')}`,
    })
    fireEvent.click(screen.getByText('关于我们'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/about/about' })
  })
})
