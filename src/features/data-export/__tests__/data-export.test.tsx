import { fireEvent, screen, waitFor } from '@testing-library/react'
import { profile } from '@/services/__tests__/account-fixtures'
import { UserFacingError } from '@/services/api'
import {
  DATA_EXPORT_CONTENTS,
  type DataExport,
  type DataExportOverview,
  listDataExports,
  requestDataExport,
} from '@/services/data-export'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/data-export', () => ({
  ...jest.requireActual<typeof import('@/services/data-export')>('@/services/data-export'),
  listDataExports: jest.fn(),
  requestDataExport: jest.fn(),
}))
const list = jest.mocked(listDataExports)
const request = jest.mocked(requestDataExport)

const ME = { id: 'u-me', label: '本人' }
const CHILD = { id: 'u-child', label: '小明（家庭成员）' }

function item(overrides: Partial<DataExport> = {}): DataExport {
  return {
    id: 'x1',
    personId: ME.id,
    personLabel: '本人',
    state: 'building',
    stateLabel: '生成中',
    createdAt: '2026-11-29T02:00:00.000Z',
    expiresAt: null,
    downloadedAt: null,
    sizeBytes: null,
    mobileMasked: null,
    message: null,
    ...overrides,
  }
}

function answer(items: DataExport[], people = [ME, CHILD]): DataExportOverview {
  return { people, items }
}

/** The nut-button whose text is exactly `text` (the sheet's 申请导出 is the last). */
function button(text: string): HTMLElement {
  const found = Array.from(document.querySelectorAll<HTMLElement>('.nut-button')).filter(
    (element) => element.textContent?.trim() === text,
  )
  if (found.length === 0) throw new Error(`no button ${text}`)
  return found.at(-1)!
}

beforeEach(() => {
  resetStores()
  list.mockReset()
  request.mockReset()
})

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

describe('导出我的数据', () => {
  it('asks a signed-out person to log in', async () => {
    const page = await renderPage('pages/user/dataExport')
    expect(page.element.textContent).toContain('登录后才能导出您的数据')
    expect(list).not.toHaveBeenCalled()
  })

  it('says what the archive holds and the link’s rules, and lists the requests’ states', async () => {
    signIn()
    list.mockResolvedValue(
      answer([
        item({
          id: 'a',
          state: 'sent',
          stateLabel: '已发送到手机',
          mobileMasked: '138****0001',
          expiresAt: '2026-11-30T02:00:00.000Z',
          sizeBytes: 5 * 1024 * 1024,
        }),
        item({ id: 'b', state: 'downloaded', stateLabel: '已下载' }),
        item({ id: 'c', state: 'expired', stateLabel: '已过期', personLabel: CHILD.label }),
      ]),
    )
    const page = await renderPage('pages/user/dataExport')
    expect(await screen.findByText('下载链接已发送至 138****0001')).toBeTruthy()
    expect(document.title).toBe('导出我的数据')
    const text = page.element.textContent ?? ''
    for (const line of DATA_EXPORT_CONTENTS) expect(text).toContain(line)
    expect(text).toContain('24 小时内有效，只能下载一次')
    expect(text).toContain('已下载')
    expect(text).toContain('已过期')
    expect(text).toContain('5.0 MB')
    expect(text).toContain('11-30 10:00 前有效')
  })

  it('exports a managed member’s data after the password, then shows 生成中', async () => {
    signIn()
    list.mockResolvedValue(answer([]))
    await renderPage('pages/user/dataExport')
    expect(await screen.findByText('还没有导出记录')).toBeTruthy()
    fireEvent.click(screen.getByText(CHILD.label))
    expect(screen.getByText(CHILD.label).getAttribute('aria-checked')).toBe('true')
    fireEvent.click(button('申请导出'))
    const password = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>(
        '.data-export-sheet input[placeholder="请输入登录密码"]',
      )
      if (!input) throw new Error('no password input')
      return input
    })
    request.mockRejectedValueOnce(new UserFacingError('密码错误，请重新输入'))
    fireEvent.input(password, { target: { value: 'wrong' } })
    fireEvent.click(button('申请导出'))
    expect(await screen.findByText('密码错误，请重新输入')).toBeTruthy()

    request.mockResolvedValueOnce(item({ personId: CHILD.id, personLabel: CHILD.label }))
    list.mockResolvedValue(answer([item({ personId: CHILD.id, personLabel: CHILD.label })]))
    fireEvent.input(password, { target: { value: 'Right2030' } })
    fireEvent.click(button('申请导出'))
    expect(await screen.findByText('正在生成，完成后会以短信发送下载链接')).toBeTruthy()
    expect(request).toHaveBeenLastCalledWith({ personId: CHILD.id, password: 'Right2030' })
    // While one is being built a second cannot be asked.
    expect(document.querySelector('.data-export__submit')?.className).toContain('disabled')
  })

  it('exports the account’s own data without naming a person', async () => {
    signIn()
    list.mockResolvedValue(answer([], [ME]))
    await renderPage('pages/user/dataExport')
    await screen.findByText('还没有导出记录')
    expect(screen.queryByText('为谁导出')).toBeNull()
    fireEvent.click(button('申请导出'))
    const password = await waitFor(() => {
      const input = document.querySelector<HTMLInputElement>(
        '.data-export-sheet input[placeholder="请输入登录密码"]',
      )
      if (!input) throw new Error('no password input')
      return input
    })
    request.mockResolvedValueOnce(item())
    fireEvent.input(password, { target: { value: 'Right2030' } })
    fireEvent.click(button('申请导出'))
    await waitFor(() => expect(request).toHaveBeenCalledWith({ password: 'Right2030' }))
  })
})
