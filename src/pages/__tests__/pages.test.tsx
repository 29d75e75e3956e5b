import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { renderPage } from '../../../jest/taro-render'

// The pages of home, mine, settings, diagnostics and the unbuilt routes, opened by their spec paths
// through Taro's H5 router (jest/taro-render), as the app opens them.

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  getServerVersion: jest.fn(async () => '0.1.0'),
}))

describe('pages through the router', () => {
  it('home: the grid, and an entry opens its page', async () => {
    const home = await renderPage('pages/main/main')
    expect(document.title).toBe('医影通')
    expect(home.element.textContent).toContain('扫一扫')
    const navigateTo = jest.spyOn(Taro, 'navigateTo')
    fireEvent.click(screen.getByText('健康资讯'))
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/infoList/infoList' })
    // The router really went there: the article list's title, not the 即将上线 page.
    await waitFor(() => expect(document.title).toBe('健康资讯'), { timeout: 10_000 })
    expect(screen.queryByText('该功能即将上线，敬请期待')).toBeNull()
  })

  it('mine, settings, about and diagnostics open signed out', async () => {
    expect((await renderPage('pages/user/user')).element.textContent).toContain('登录 / 注册')
    expect((await renderPage('pages/setup/setup')).element.textContent).toContain('关于我们')
    expect(await renderPage('pages/about/about').then((p) => p.element.textContent)).toContain(
      '隐私政策',
    )
    expect(await screen.findByText('版本 0.1.0')).toBeTruthy()
    expect((await renderPage('pages/test/test')).element.textContent).toContain('诊断信息')
  })
})
