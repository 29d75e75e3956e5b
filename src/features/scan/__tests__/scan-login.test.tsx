import { act, fireEvent, screen } from '@testing-library/react'
import { HttpError } from '@/services/http'
import { QR_NOT_SCANNED, answerQrLogin, getQrLoginRequest } from '@/services/profile'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { ScanLoginView } from '../components/scan-login-view'
import { useScanLogin } from '../hooks/use-scan-login'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  getQrLoginRequest: jest.fn(),
  answerQrLogin: jest.fn(),
}))

function Page({ id }: { id?: string }) {
  return (
    <ScanLoginView view={useScanLogin(id)} currentUrl={`/pages/scanLogin/scanLogin?id=${id}`} />
  )
}

const REQUEST = {
  id: 'q1',
  browser: 'Chrome 120 · Windows',
  ipMasked: '127.0.*.*',
  location: '本机',
  status: 'scanned' as const,
  createdAt: '2026-01-05T08:00:00.000Z',
  expiresAt: '2026-01-05T08:02:00.000Z',
}

function refusal(message: string) {
  return new HttpError(
    { statusCode: 400, header: {}, data: { code: 400, message: 'x', data: null, error: message } },
    'business',
  )
}

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

describe('扫码登录', () => {
  beforeEach(() => {
    resetStores()
    useSessionStore.getState().setToken({ access_token: 't' })
    jest.mocked(getQrLoginRequest).mockResolvedValue(REQUEST)
  })

  it('shows who is asking, and confirming logs the desktop in', async () => {
    jest.mocked(answerQrLogin).mockResolvedValue(undefined)
    await renderComponent(<Page id="q1" />)
    expect(await screen.findByText('Chrome 120 · Windows')).toBeTruthy()
    expect(screen.getByText('本机 · 127.0.*.*')).toBeTruthy()
    expect(screen.getByText('2026-01-05 16:00:00')).toBeTruthy()
    expect(getQrLoginRequest).toHaveBeenCalledWith('q1')
    fireEvent.click(screen.getByText('确认登录'))
    await flush()
    expect(answerQrLogin).toHaveBeenCalledWith('q1', true)
    expect(screen.getByText('已确认登录')).toBeTruthy()
  })

  it('refusing answers no and says so', async () => {
    jest.mocked(answerQrLogin).mockResolvedValue(undefined)
    await renderComponent(<Page id="q1" />)
    fireEvent.click(await screen.findByText('取消登录'))
    await flush()
    expect(answerQrLogin).toHaveBeenCalledWith('q1', false)
    expect(screen.getByText('已取消登录')).toBeTruthy()
  })

  it("shows the server's message for an expired or answered request", async () => {
    jest.mocked(getQrLoginRequest).mockRejectedValue(refusal('二维码已过期，请在电脑上刷新'))
    await renderComponent(<Page id="q1" />)
    expect(await screen.findByText('二维码已过期，请在电脑上刷新')).toBeTruthy()
    expect(screen.queryByText('确认登录')).toBeNull()
  })

  it('answers once even when 确认登录 is tapped twice, and reports a late refusal', async () => {
    jest.mocked(answerQrLogin).mockRejectedValue(refusal('该登录请求已处理'))
    await renderComponent(<Page id="q1" />)
    const confirm = await screen.findByText('确认登录')
    fireEvent.click(confirm)
    fireEvent.click(confirm)
    await flush()
    expect(answerQrLogin).toHaveBeenCalledTimes(1)
    expect(screen.getByText('该登录请求已处理')).toBeTruthy()
  })

  it('asks a signed-out person to log in first, and a missing id is invalid', async () => {
    useSessionStore.getState().clearToken()
    const { unmount } = await renderComponent(<Page id="q1" />)
    expect(screen.getByText('去登录')).toBeTruthy()
    expect(getQrLoginRequest).not.toHaveBeenCalled()
    unmount()
    await renderComponent(<Page />)
    expect(screen.getByText('二维码无效，请重新扫描电脑上的二维码')).toBeTruthy()
  })

  it('takes no id from a link: without a scan in this app it asks the server nothing', async () => {
    const actual = jest.requireActual<typeof import('@/services/profile')>('@/services/profile')
    jest.mocked(getQrLoginRequest).mockImplementation(actual.getQrLoginRequest)
    jest.mocked(answerQrLogin).mockImplementation(actual.answerQrLogin)
    await renderComponent(<Page id="q-from-a-link" />)
    expect(await screen.findByText(QR_NOT_SCANNED)).toBeTruthy()
    expect(screen.queryByText('确认登录')).toBeNull()
    await expect(actual.answerQrLogin('q-from-a-link', true)).rejects.toThrow(QR_NOT_SCANNED)
  })
})
