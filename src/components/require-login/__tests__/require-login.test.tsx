import { fireEvent, render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { resetStores } from '../../../stores/reset-stores'
import { useAppStore } from '../../../stores/app-store'
import { RequireLogin, SignInNeeded } from '..'

describe('RequireLogin', () => {
  beforeEach(() => resetStores())

  it('asks a signed-out person to log in instead of rendering the page', () => {
    render(
      <RequireLogin text="登录后才能设置通知">
        <span>通知开关</span>
      </RequireLogin>,
    )
    expect(screen.queryByText('通知开关')).toBeNull()
    expect(screen.getByText('登录后才能设置通知')).toBeTruthy()
    expect(screen.getByText('去登录')).toBeTruthy()
  })

  it('renders the page once signed in', () => {
    useAppStore.setState({ hasLogin: true, userName: '张三' })
    render(
      <RequireLogin>
        <span>通知开关</span>
      </RequireLogin>,
    )
    expect(screen.getByText('通知开关')).toBeTruthy()
  })
})

describe('SignInNeeded', () => {
  it('goes to login with a way back', () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    render(<SignInNeeded redirect="/pages/idcard/idcard" />)
    fireEvent.click(screen.getByText('去登录'))
    expect(navigateTo).toHaveBeenCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/idcard/idcard')}`,
    })
  })
})
