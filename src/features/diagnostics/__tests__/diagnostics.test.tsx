import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { useAppStore } from '@/stores/app-store'
import { usePolicyStore } from '@/stores/policy-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { DiagnosticsView } from '../components/diagnostics-view'
import { useDiagnostics } from '../hooks/use-diagnostics'
import { renderComponent } from '../../../../jest/taro-render'

function Page() {
  return <DiagnosticsView model={useDiagnostics()} />
}

const SECRET = 'secret-access-token-123'

describe('诊断信息', () => {
  beforeEach(() => {
    resetStores()
    useSessionStore
      .getState()
      .setToken({ access_token: SECRET, refresh_token: 'secret-refresh-456' })
    useAppStore.getState().login('张三')
    usePolicyStore.getState().acceptVersion('2026.1')
  })

  it('shows platform, environment, hosts and stored state, never the token', async () => {
    const { container } = await renderComponent(<Page />)
    expect(screen.getByText('网页 (h5)')).toBeTruthy()
    expect(screen.getByText('微信')).toBeTruthy()
    expect(screen.getByText('sso')).toBeTruthy()
    expect(screen.getByText('/sso')).toBeTruthy()
    expect(screen.getByText('张三')).toBeTruthy()
    expect(screen.getByText('2026.1')).toBeTruthy()
    expect(screen.getByText('已保存')).toBeTruthy()
    expect(container.textContent).not.toContain(SECRET)
    expect(container.textContent).not.toContain('secret-refresh')
  })

  it('复制诊断信息 copies the same facts as text, without secrets', async () => {
    const copy = jest
      .spyOn(Taro, 'setClipboardData')
      .mockResolvedValue({ errMsg: 'setClipboardData:ok', data: '' })
    jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('复制诊断信息'))
    const text = (copy.mock.calls[0][0] as { data: string }).data
    expect(text).toContain('【运行平台】')
    expect(text).toContain('已同意隐私政策版本: 2026.1')
    expect(text).not.toContain(SECRET)
  })
})
