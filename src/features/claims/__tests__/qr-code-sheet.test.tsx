import { act, fireEvent, screen } from '@testing-library/react'
import jsQR from 'jsqr'
import type { Context2D } from '@/platform/canvas'
import { canvasSurface } from '@/platform/canvas'
import { brightenScreen } from '@/platform/screen-brightness'
import { issueExamQrCode } from '@/services/claims'
import { HttpError } from '@/services/http'
import { QrCodeSheet } from '../index'
import { formatCountdown, QR_REFRESH_AHEAD_MS } from '../hooks/use-exam-qr'
import { drawQr, qrMatrix, utf8 } from '../qr-matrix'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/claims', () => ({ issueExamQrCode: jest.fn() }))
jest.mock('@/platform/canvas', () => ({ canvasSurface: jest.fn() }))
jest.mock('@/platform/screen-brightness', () => ({ brightenScreen: jest.fn() }))

const issue = jest.mocked(issueExamQrCode)
const surface = jest.mocked(canvasSurface)
const brighten = jest.mocked(brightenScreen)

/** A context that paints into an RGBA buffer, so what was drawn can be decoded again. */
function pixelContext(side: number) {
  const data = new Uint8ClampedArray(side * side * 4).fill(0)
  let colour = 0
  const context: Context2D = {
    set fillStyle(value: unknown) {
      colour = value === '#000000' ? 0 : 255
    },
    get fillStyle() {
      return colour === 0 ? '#000000' : '#ffffff'
    },
    fillRect(x, y, width, height) {
      for (let row = y; row < y + height; row += 1)
        for (let column = x; column < x + width; column += 1) {
          const at = (row * side + column) * 4
          data[at] = data[at + 1] = data[at + 2] = colour
          data[at + 3] = 255
        }
    },
    clearRect: () => undefined,
    setTransform: () => undefined,
  }
  return { context, data }
}

async function flush() {
  await act(async () => {
    await Promise.resolve()
    await Promise.resolve()
  })
}

const CONTENT = 'yingxiang-exam:v1.AAAAAAAAAAAAAAAA.BBBBBBBBBBBBBBBBBBBBBB.' + 'C'.repeat(140)

describe('exam QR code', () => {
  it('draws a symbol a scanner reads back as the content', () => {
    const side = 232
    const { context, data } = pixelContext(side)
    const module = drawQr(context, qrMatrix(CONTENT), side)
    expect(module).toBeGreaterThanOrEqual(3)
    const read = jsQR(data, side, side)
    expect(read?.data).toBe(CONTENT)
  })

  it('encodes text as UTF-8 itself (no TextEncoder on the mini-program)', () => {
    for (const text of ['abc-_.', '影像 ✓', '𠀋']) {
      expect(utf8(text)).toEqual([...Buffer.from(text, 'utf8')])
    }
  })

  it('counts minutes and seconds', () => {
    expect(formatCountdown(300)).toBe('5:00')
    expect(formatCountdown(59)).toBe('0:59')
    expect(formatCountdown(-3)).toBe('0:00')
  })
})

describe('QrCodeSheet', () => {
  let restore: jest.Mock
  beforeEach(() => {
    jest.clearAllMocks()
    restore = jest.fn()
    brighten.mockResolvedValue(restore)
    surface.mockImplementation(async (_id, width) => ({
      context: pixelContext(width).context,
      width,
      height: width,
    }))
  })
  afterEach(() => {
    jest.useRealTimers()
  })

  it('shows the code with the time left and replaces it before it ends', async () => {
    // Fake time that also runs on its own, so mounting (which waits a frame) completes.
    jest.useFakeTimers({ advanceTimers: true })
    issue
      .mockResolvedValueOnce({ content: `${CONTENT}1`, expiresAt: '', ttlSeconds: 300 })
      .mockResolvedValueOnce({ content: `${CONTENT}2`, expiresAt: '', ttlSeconds: 300 })
    await renderComponent(<QrCodeSheet examId="e1" visible onClose={() => undefined} />)
    await flush()
    expect(issue).toHaveBeenCalledWith('e1', { quietOffline: true })
    expect(screen.getByText('5:00 后失效，到期自动刷新')).toBeTruthy()
    expect(brighten).toHaveBeenCalledTimes(1)
    await act(() => jest.advanceTimersByTimeAsync(1000))
    expect(screen.getByText('4:59 后失效，到期自动刷新')).toBeTruthy()
    expect(issue).toHaveBeenCalledTimes(1)
    // Shortly before the end a new code is fetched, and the count starts again.
    await act(() => jest.advanceTimersByTimeAsync(300_000 - QR_REFRESH_AHEAD_MS - 1000))
    await flush()
    expect(issue).toHaveBeenCalledTimes(2)
    expect(screen.getByText('5:00 后失效，到期自动刷新')).toBeTruthy()
    // Each code was drawn.
    expect(surface).toHaveBeenCalledTimes(2)
  })

  it('fetches nothing while closed and restores the brightness when it closes', async () => {
    issue.mockResolvedValue({ content: CONTENT, expiresAt: '', ttlSeconds: 300 })
    const view = await renderComponent(
      <QrCodeSheet examId="e1" visible={false} onClose={() => undefined} />,
    )
    await flush()
    expect(issue).not.toHaveBeenCalled()
    expect(brighten).not.toHaveBeenCalled()
    view.unmount()
    const opened = await renderComponent(
      <QrCodeSheet examId="e1" visible onClose={() => undefined} />,
    )
    await flush()
    expect(brighten).toHaveBeenCalledTimes(1)
    opened.unmount()
    expect(restore).toHaveBeenCalledTimes(1)
  })

  it('says why there is no code, and 重试 asks again', async () => {
    issue.mockRejectedValueOnce(
      new HttpError(
        {
          statusCode: 404,
          header: {},
          data: { code: 404, message: 'x', data: null, error: '检查不存在或您无权查看' },
        },
        'business',
      ),
    )
    issue.mockResolvedValueOnce({ content: CONTENT, expiresAt: '', ttlSeconds: 300 })
    const onClose = jest.fn()
    await renderComponent(<QrCodeSheet examId="e1" visible onClose={onClose} />)
    await flush()
    expect(screen.getByText('检查不存在或您无权查看')).toBeTruthy()
    fireEvent.click(screen.getByText('重试'))
    await flush()
    expect(screen.getByText('5:00 后失效，到期自动刷新')).toBeTruthy()
    fireEvent.click(screen.getByText('关闭'))
    expect(onClose).toHaveBeenCalled()
  })
})
