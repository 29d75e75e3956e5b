import { act, fireEvent, screen } from '@testing-library/react'
import { mount } from '@/components/form/__tests__/mount'
import * as auth from '@/services/auth'
import { flush, session } from '@/services/__tests__/account-fixtures'
import { QrLoginPanel } from '../components/qr-login-panel'
import { QR_POLL_MS, QR_TEXT } from '../hooks/use-qr-login'

jest.mock('@/services/auth', () => ({
  ...jest.requireActual<typeof import('@/services/auth')>('@/services/auth'),
  createQrLogin: jest.fn(),
  pollQrLogin: jest.fn(),
}))
jest.mock('../desktop', () => ({
  isDesktopScreen: () => true,
  qrDataUrl: (content: string) => Promise.resolve(`data:image/png;base64,${btoa(content)}`),
}))
const mocked = jest.mocked(auth)

let ticket = 0
beforeEach(() => {
  mocked.createQrLogin.mockImplementation(async () => {
    ticket += 1
    return {
      id: `q${ticket}`,
      pollSecret: 'secret',
      content: `yingxiang-login:q${ticket}`,
      expiresAt: '2099-01-01T00:00:00.000Z',
    }
  })
})

/** The test utils' mount waits for an animation frame, which must stay real. */
function show(props: { active: boolean; onSession: (session: unknown) => void }) {
  jest.useFakeTimers({ doNotFake: ['requestAnimationFrame', 'cancelAnimationFrame'] })
  return mount(QrLoginPanel, props)
}

async function tick() {
  await act(() => jest.advanceTimersByTimeAsync(QR_POLL_MS))
  await act(flush)
}

describe('desktop scan login', () => {
  it('draws the code, follows the phone and signs in when it confirms', async () => {
    const onSession = jest.fn()
    mocked.pollQrLogin
      .mockResolvedValueOnce({ status: 'pending' })
      .mockResolvedValueOnce({ status: 'scanned' })
      .mockResolvedValueOnce({ status: 'confirmed', session: session() })
    await show({ active: true, onSession: onSession })
    await act(flush)
    expect(screen.getByText(QR_TEXT.pending)).toBeTruthy()
    expect(screen.getByLabelText('扫码登录二维码').getAttribute('src')).toContain('data:image/png')
    await tick()
    expect(mocked.pollQrLogin).toHaveBeenCalledWith('q1', 'secret', {
      loading: false,
      quietOffline: true,
    })
    await tick()
    expect(screen.getByText(QR_TEXT.scanned)).toBeTruthy()
    await tick()
    expect(onSession).toHaveBeenCalledWith(session())
    await tick()
    expect(mocked.pollQrLogin).toHaveBeenCalledTimes(3)
  })

  it('says when the phone refused or the code expired, and 刷新 makes a new one', async () => {
    mocked.pollQrLogin.mockResolvedValueOnce({ status: 'refused' })
    await show({ active: true, onSession: jest.fn() })
    await act(flush)
    await tick()
    expect(screen.getByText(QR_TEXT.refused)).toBeTruthy()
    const created = mocked.createQrLogin.mock.calls.length
    fireEvent.click(screen.getByText('刷新'))
    await act(flush)
    expect(mocked.createQrLogin).toHaveBeenCalledTimes(created + 1)
    mocked.pollQrLogin.mockResolvedValueOnce({ status: 'expired' })
    await tick()
    expect(screen.getByText(QR_TEXT.expired)).toBeTruthy()
  })

  it('stops polling when the page goes away', async () => {
    mocked.pollQrLogin.mockResolvedValue({ status: 'pending' })
    const utils = await show({ active: true, onSession: jest.fn() })
    await act(flush)
    await tick()
    const polls = mocked.pollQrLogin.mock.calls.length
    utils.unmout()
    await act(() => jest.advanceTimersByTimeAsync(QR_POLL_MS * 5))
    expect(mocked.pollQrLogin).toHaveBeenCalledTimes(polls)
  })
})
