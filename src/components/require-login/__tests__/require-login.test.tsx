import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { resetStores } from '../../../stores/reset-stores'
import { useAppStore } from '../../../stores/app-store'
import { RequireLogin, SignInNeeded } from '..'
import { renderComponent } from '../../../../jest/taro-render'

describe('RequireLogin', () => {
  beforeEach(() => resetStores())

  it('asks a signed-out person to log in instead of rendering the page', async () => {
    await renderComponent(
      <RequireLogin text="登录后才能设置通知">
        <span>通知开关</span>
      </RequireLogin>,
    )
    expect(screen.queryByText('通知开关')).toBeNull()
    expect(screen.getByText('登录后才能设置通知')).toBeTruthy()
    expect(screen.getByText('去登录')).toBeTruthy()
  })

  it('renders the page once signed in', async () => {
    useAppStore.setState({ hasLogin: true, userName: '张三' })
    await renderComponent(
      <RequireLogin>
        <span>通知开关</span>
      </RequireLogin>,
    )
    expect(screen.getByText('通知开关')).toBeTruthy()
  })
})

describe('SignInNeeded', () => {
  it('goes to login with a way back', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderComponent(<SignInNeeded redirect="/pages/idcard/idcard" />)
    fireEvent.click(screen.getByText('去登录'))
    expect(navigateTo).toHaveBeenCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/idcard/idcard')}`,
    })
  })
})
