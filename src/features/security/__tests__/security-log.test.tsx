import { screen } from '@testing-library/react'
import type { AuditEvent } from '@/services/profile'
import { listSecurityEvents } from '@/services/profile'
import { profile } from '@/services/__tests__/account-fixtures'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  listSecurityEvents: jest.fn(),
}))
const mocked = jest.mocked(listSecurityEvents)

function event(n: number, overrides: Partial<AuditEvent> = {}): AuditEvent {
  return {
    id: `e${n}`,
    kind: 'login',
    label: '登录',
    createdAt: '2026-11-23T02:05:00.000Z',
    ipMasked: '203.0.113.*',
    location: '未知位置',
    client: 'Chrome 120 · Windows',
    detail: '密码',
    ...overrides,
  }
}

beforeEach(() => {
  resetStores()
})

describe('登录记录', () => {
  it('asks a signed-out person to log in', async () => {
    const page = await renderPage('pages/securityLog/securityLog')
    expect(page.element.textContent).toContain('登录后才能查看登录记录')
    expect(mocked).not.toHaveBeenCalled()
  })

  it('lists the account’s own events with time, event in Chinese and client, page by page', async () => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    mocked.mockResolvedValue({
      items: [
        event(1),
        event(2, { kind: 'lock', label: '登录被锁定（密码错误次数过多）', detail: null }),
      ],
      total: 2,
      page: 1,
      pageSize: 10,
    })
    const page = await renderPage('pages/securityLog/securityLog')
    expect(await screen.findByText('登录（密码）')).toBeTruthy()
    expect(mocked).toHaveBeenCalledWith(1, 10, { loading: false })
    expect(document.title).toBe('登录记录')
    const text = page.element.textContent ?? ''
    expect(text).toContain('2026-11-23 10:05')
    expect(text).toContain('Chrome 120 · Windows')
    expect(text).toContain('未知位置 · 203.0.113.*')
    expect(screen.getByText('登录被锁定（密码错误次数过多）').className).toContain('--warn')
  })
})
