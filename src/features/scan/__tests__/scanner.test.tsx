import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { QR_LOGIN_PREFIX } from '@contract/main/qr-login'
import { scanCapabilities, scanFromPhoto } from '@/platform/scan'
import { scanQrLogin } from '@/services/profile'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { ScanView } from '../components/scan-view'
import { useScanner } from '../hooks/use-scanner'
import { UNKNOWN_CODE_MESSAGE, parseScanned } from '../qr-content'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/platform/scan', () => ({
  ...jest.requireActual<typeof import('@/platform/scan')>('@/platform/scan'),
  scanCapabilities: jest.fn(),
  scanFromPhoto: jest.fn(),
  scanWithNativeScanner: jest.fn(),
  startLiveScan: jest.fn(),
}))

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  scanQrLogin: jest.fn(),
}))

function Page() {
  return <ScanView scanner={useScanner()} />
}

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

describe('parseScanned', () => {
  it('knows our login codes and nothing else', async () => {
    expect(parseScanned(`${QR_LOGIN_PREFIX}abc_123`)).toEqual({ kind: 'login', id: 'abc_123' })
    expect(parseScanned('https://example.com')).toEqual({ kind: 'unknown' })
    expect(parseScanned(`${QR_LOGIN_PREFIX}../x`)).toEqual({ kind: 'unknown' })
  })

  it("knows a hospital's room code (any origin), with or without a room", () => {
    expect(
      parseScanned(
        'https://yx.example.cn/pages/report/reportIn?hospitalId=h-01&roomId=h-01-dept-01',
      ),
    ).toEqual({ kind: 'room', hospitalId: 'h-01', roomId: 'h-01-dept-01' })
    expect(parseScanned('http://localhost:10086/pages/report/reportIn?hospitalId=h-01')).toEqual({
      kind: 'room',
      hospitalId: 'h-01',
    })
    expect(parseScanned('https://x.cn/pages/report/reportIn?roomId=r1')).toEqual({
      kind: 'unknown',
    })
    expect(parseScanned('https://x.cn/pages/report/reportIn?hospitalId=a/b')).toEqual({
      kind: 'unknown',
    })
  })
})

describe('扫一扫 on H5', () => {
  let redirectTo: jest.SpyInstance
  beforeEach(() => {
    jest
      .mocked(scanCapabilities)
      .mockReturnValue({ nativeScanner: false, photo: true, liveCamera: false })
    redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'redirectTo:ok' })
  })

  it('opens the confirmation for a login code read from a photo', async () => {
    jest.mocked(scanFromPhoto).mockResolvedValue({ status: 'ok', content: `${QR_LOGIN_PREFIX}q42` })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('从相册选择'))
    await flush()
    expect(scanFromPhoto).toHaveBeenCalledWith('album')
    expect(redirectTo).toHaveBeenCalledWith({ url: '/pages/scanLogin/scanLogin?id=q42' })
  })

  it('registers the scan (its confirm ticket) before opening the confirmation when signed in', async () => {
    resetStores()
    useSessionStore.getState().setToken({ access_token: 't' })
    let registered: () => void = () => undefined
    jest.mocked(scanQrLogin).mockReturnValue(
      new Promise((resolve) => {
        registered = () => resolve({} as never)
      }),
    )
    jest.mocked(scanFromPhoto).mockResolvedValue({ status: 'ok', content: `${QR_LOGIN_PREFIX}q42` })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('从相册选择'))
    await flush()
    expect(scanQrLogin).toHaveBeenCalledWith('q42')
    expect(redirectTo).not.toHaveBeenCalled()
    registered()
    await flush()
    expect(redirectTo).toHaveBeenCalledWith({ url: '/pages/scanLogin/scanLogin?id=q42' })
    resetStores()
  })

  it('opens 院内报告 for a room code', async () => {
    jest.mocked(scanFromPhoto).mockResolvedValue({
      status: 'ok',
      content: 'https://yx.example.cn/pages/report/reportIn?hospitalId=h-01&roomId=r-02',
    })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('从相册选择'))
    await flush()
    expect(redirectTo).toHaveBeenCalledWith({
      url: '/pages/report/reportIn?hospitalId=h-01&roomId=r-02',
    })
  })

  it('says 无法识别的二维码 for any other code', async () => {
    jest.mocked(scanFromPhoto).mockResolvedValue({ status: 'ok', content: 'hello' })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('拍照'))
    await flush()
    expect(screen.getByText(UNKNOWN_CODE_MESSAGE)).toBeTruthy()
    expect(redirectTo).not.toHaveBeenCalled()
  })

  it('says so when the photo holds no code, and a cancelled pick is silent', async () => {
    jest.mocked(scanFromPhoto).mockResolvedValueOnce({ status: 'no-code' })
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('拍照'))
    await flush()
    expect(screen.getByRole('alert').textContent).toContain('未在图片中找到二维码')
    jest.mocked(scanFromPhoto).mockResolvedValueOnce({ status: 'cancelled' })
    fireEvent.click(screen.getByText('拍照'))
    await flush()
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('explains when the browser cannot open the camera in the page', async () => {
    await renderComponent(<Page />)
    expect(screen.getByText('当前浏览器无法在页面内打开摄像头')).toBeTruthy()
    expect(screen.queryByText('开启摄像头扫码')).toBeNull()
  })
})
