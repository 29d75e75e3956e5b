import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { scanCapabilities, scanFromPhoto } from '@/platform/scan'
import { ScanView } from '../components/scan-view'
import { useScanner } from '../hooks/use-scanner'
import { parseScanned } from '../qr-content'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/platform/scan', () => ({
  ...jest.requireActual<typeof import('@/platform/scan')>('@/platform/scan'),
  scanCapabilities: jest.fn(),
  scanFromPhoto: jest.fn(),
  scanWithNativeScanner: jest.fn(),
  startLiveScan: jest.fn(),
}))

const CODE = 'ZXhhbS0xMjM.AAAAAAAAAAAAAAAAAAAAAA'

describe('film-bag codes in the scanner', () => {
  it('knows the report link of any origin, and nothing like it', () => {
    expect(
      parseScanned(`https://yx.example.com/pages/personalReport/detail2?code=${CODE}`),
    ).toEqual({ kind: 'film', code: CODE })
    expect(parseScanned(`http://127.0.0.1:8080/pages/personalReport/detail2?code=${CODE}`)).toEqual(
      { kind: 'film', code: CODE },
    )
    expect(parseScanned(`https://yx.example.com/pages/personalReport/detail?code=${CODE}`)).toEqual(
      { kind: 'unknown' },
    )
    expect(
      parseScanned('https://yx.example.com/pages/personalReport/detail2?code=<script>'),
    ).toEqual({ kind: 'unknown' })
    expect(parseScanned('https://yx.example.com/pages/personalReport/detail2')).toEqual({
      kind: 'unknown',
    })
  })

  it('opens the report page with the code', async () => {
    jest
      .mocked(scanCapabilities)
      .mockReturnValue({ nativeScanner: false, photo: true, liveCamera: false })
    const redirectTo = jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'ok' })
    jest.mocked(scanFromPhoto).mockResolvedValue({
      status: 'ok',
      content: `https://yx.example.com/pages/personalReport/detail2?code=${CODE}`,
    })
    function Page() {
      return <ScanView scanner={useScanner()} />
    }
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('从相册选择'))
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(redirectTo).toHaveBeenCalledWith({
      url: `/pages/personalReport/detail2?code=${encodeURIComponent(CODE)}`,
    })
  })
})
