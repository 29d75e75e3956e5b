import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { renderComponent, renderPage } from '../../jest/taro-render'

// 关于我们 asks the server for its version; no server runs under Jest.
jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  getServerVersion: jest.fn(async () => '1.2.3'),
}))

function Greeting({ name }: { name: string }) {
  return <span>{`你好，${name}`}</span>
}

describe('jest/taro-render', () => {
  it('mounts a component with its props through the test utils', async () => {
    const utils = await renderComponent(Greeting, { name: '张三' })
    expect(screen.getByText('你好，张三')).toBeTruthy()
    expect(utils.html()).toContain('你好，张三')
  })

  it('opens a route through Taro’s H5 router: title, page module and then another page', async () => {
    const about = await renderPage('pages/about/about')
    expect(about.element.textContent).toContain('隐私政策')
    expect(document.title).toBe('关于我们')
    expect(await screen.findByText(/1\.2\.3/)).toBeTruthy()

    const home = await renderPage('/pages/main/main')
    expect(home.element.textContent).toContain('扫一扫')
    expect(document.title).toBe('医影通')
  })

  it('Taro.navigateTo from a rendered page opens the next page', async () => {
    await renderPage('pages/main/main')
    await Taro.navigateTo({ url: '/pages/about/about' })
    expect(await screen.findByText('隐私政策')).toBeTruthy()
    fireEvent.click(screen.getByText('隐私政策'))
    expect(await screen.findAllByText('隐私政策')).not.toHaveLength(0)
  })
})
