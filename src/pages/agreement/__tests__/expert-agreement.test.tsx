import { screen } from '@testing-library/react'
import { getAgreement } from '@/services/app-info'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/app-info', () => ({
  ...jest.requireActual<typeof import('@/services/app-info')>('@/services/app-info'),
  getAgreement: jest.fn(),
}))

describe('专家协议', () => {
  it('shows the expert agreement with its version, as the other agreement pages do', async () => {
    jest.mocked(getAgreement).mockResolvedValue({
      kind: 'expert',
      title: '专家服务协议',
      version: '2026-11',
      content: '第一条 总则\n\n第二条 认证',
      updatedAt: '2026-11-01T00:00:00.000Z',
    })
    await renderPage('pages/agreement/expertAgreement')
    expect(await screen.findByText('专家服务协议')).toBeTruthy()
    expect(screen.getByText('版本 2026-11 · 更新于 2026-11-01')).toBeTruthy()
    expect(screen.getByText('第二条 认证')).toBeTruthy()
    expect(jest.mocked(getAgreement).mock.calls[0][0]).toBe('expert')
  })
})
