import { screen } from '@testing-library/react'
import { openAsPage } from '@/platform/web-page'
import { checkWebAddress, listWebOrigins } from '@/services/web-origins'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/web-origins', () => ({
  ...jest.requireActual<typeof import('@/services/web-origins')>('@/services/web-origins'),
  listWebOrigins: jest.fn(),
}))
jest.mock('@/platform/web-page', () => ({ openAsPage: jest.fn(() => true) }))

const ALLOWED = ['https://www.nhc.gov.cn']

describe('checkWebAddress', () => {
  it.each([
    ['https://www.nhc.gov.cn/wjw/index.shtml', true],
    ['https://www.nhc.gov.cn:443/x', true],
    ['http://www.nhc.gov.cn/', false],
    ['https://www.nhc.gov.cn.evil.example/', false],
    ['https://evil.example/?https://www.nhc.gov.cn', false],
    ['https://www.nhc.gov.cn@evil.example/', false],
    ['https://user:pw@www.nhc.gov.cn/', false],
    ['https://www.nhc.gov.cn:8443/', false],
    ['javascript:alert(1)', false],
    ['not a url', false],
  ])('%s → %s', (url, allowed) => {
    expect(checkWebAddress(url, ALLOWED).allowed).toBe(allowed)
  })
})

describe('网页 (webview)', () => {
  beforeEach(() => {
    resetStores()
    jest.clearAllMocks()
    jest.mocked(listWebOrigins).mockResolvedValue(ALLOWED)
  })

  it('opens an allowed page as a normal page in H5', async () => {
    await renderPage('pages/webview/webview', { url: 'https://www.nhc.gov.cn/wjw/index.shtml' })
    expect(await screen.findByText('正在打开网页…')).toBeTruthy()
    expect(openAsPage).toHaveBeenCalledWith('https://www.nhc.gov.cn/wjw/index.shtml')
  })

  it('refuses any other origin with a message and the address, and never opens it', async () => {
    await renderPage('pages/webview/webview', { url: 'https://www.nhc.gov.cn.evil.example/login' })
    expect(await screen.findByText('该网页不在允许范围内，无法打开')).toBeTruthy()
    expect(screen.getByText('https://www.nhc.gov.cn.evil.example/login')).toBeTruthy()
    expect(openAsPage).not.toHaveBeenCalled()
    expect(document.querySelector('iframe')).toBeNull()
  })
})
