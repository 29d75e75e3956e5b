import { fireEvent, render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { findRoute } from '../../../routes'
import { MineView } from '../components/mine-view'
import { MINE_GROUPS } from '../entries'

describe('MineView', () => {
  let navigateTo: jest.SpyInstance
  beforeEach(() => {
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  })

  it('invites a signed-out user to log in, and sends personal entries through login', () => {
    render(<MineView loggedIn={false} userName="" />)
    fireEvent.click(screen.getByText('登录 / 注册'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/login/login' })
    fireEvent.click(screen.getByText('我的报告'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/personalReport/index-ys')}`,
    })
  })

  it('links only to routes of the spec', () => {
    for (const entry of MINE_GROUPS.flat()) expect(findRoute(entry.path)).toBeDefined()
  })

  it('opens public entries directly', () => {
    render(<MineView loggedIn={false} userName="" />)
    fireEvent.click(screen.getByText('关于我们'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/about/about' })
  })

  it('greets a signed-in user by name and opens entries directly', () => {
    render(<MineView loggedIn userName="张三" />)
    expect(screen.getByText('张三')).toBeTruthy()
    expect(screen.queryByText('登录 / 注册')).toBeNull()
    fireEvent.click(screen.getByText('我的钱包'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/myWallet' })
  })
})
