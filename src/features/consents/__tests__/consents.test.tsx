import Taro from '@tarojs/taro'
import { fireEvent, screen, waitFor } from '@testing-library/react'
import { CONSENT_RULES, type ConsentGroup, type ConsentItem } from '@contract/main/consents'
import { listConsents, withdrawConsent } from '@/services/consents'
import { profile } from '@/services/__tests__/account-fixtures'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/consents', () => ({
  ...jest.requireActual<typeof import('@/services/consents')>('@/services/consents'),
  listConsents: jest.fn(),
  withdrawConsent: jest.fn(),
}))

function item(overrides: Partial<ConsentItem> = {}): ConsentItem {
  return {
    purpose: 'consult-share',
    targetId: 'c1',
    title: '向 李专家 共享 2 项记录',
    subject: '本人',
    state: 'given',
    stateLabel: '已同意',
    version: 'consult-2026-11',
    history: [
      {
        action: 'given',
        actionLabel: '同意',
        at: '2026-11-20T02:00:00.000Z',
        version: 'consult-2026-11',
        channel: '会诊申请信息 · 同意并提交',
      },
    ],
    canWithdraw: true,
    ...overrides,
  }
}

function group(purpose: ConsentGroup['purpose'], items: ConsentItem[]): ConsentGroup {
  const rule = CONSENT_RULES[purpose]
  return { purpose, ...rule, items }
}

let modal: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  jest.mocked(listConsents).mockResolvedValue({
    groups: [
      group('privacy', [
        item({
          purpose: 'privacy',
          targetId: null,
          title: '隐私政策',
          version: '2026.11',
          canWithdraw: false,
        }),
      ]),
      group('consult-share', [item()]),
      group('ai-analysis', []),
    ],
  })
  modal = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('隐私与授权', () => {
  it('shows each purpose with its consents, state, version and where it was given', async () => {
    const page = await renderPage('pages/user/privacy')
    expect(await screen.findByText('向 李专家 共享 2 项记录')).toBeTruthy()
    const text = page.element.textContent ?? ''
    expect(text).toContain('会诊资料共享')
    expect(text).toContain('本人 · 版本 consult-2026-11 · 2026-11-20 10:00')
    expect(text).toContain('暂无记录')
    // The policies cannot be withdrawn here: the page says where.
    expect(text).toContain('请在“注销账号”中办理')
    expect(screen.getAllByText('撤回')).toHaveLength(1)
    fireEvent.click(screen.getAllByText('查看记录（1）')[1]!)
    expect(page.element.textContent).toContain(
      '同意（版本 consult-2026-11） · 会诊申请信息 · 同意并提交',
    )
  })

  it('撤回 says what stops and what stays before it acts, then shows the consent withdrawn', async () => {
    jest.mocked(withdrawConsent).mockResolvedValue({
      item: item({
        state: 'withdrawn',
        stateLabel: '已撤回',
        canWithdraw: false,
        history: [
          {
            action: 'withdrawn',
            actionLabel: '撤回',
            at: '2026-11-21T02:00:00.000Z',
            version: 'consult-2026-11',
            channel: '隐私与授权 · 撤回',
          },
          ...item().history,
        ],
      }),
      done: CONSENT_RULES['consult-share'].onWithdraw,
      kept: CONSENT_RULES['consult-share'].cannotUndo,
    })
    await renderPage('pages/user/privacy')
    fireEvent.click(await screen.findByText('撤回'))
    await waitFor(() => expect(withdrawConsent).toHaveBeenCalledWith('consult-share', 'c1'))
    const asked = modal.mock.calls[0]![0] as { content: string }
    expect(asked.content).toContain('撤回后专家立即不能再查看这些资料')
    expect(asked.content).toContain('会诊意见和对话记录按规定保存')
    expect(await screen.findByText('已撤回')).toBeTruthy()
    expect(screen.queryAllByText('撤回')).toHaveLength(0)
  })

  it('cancelled at the question: nothing is withdrawn', async () => {
    modal.mockResolvedValue({ confirm: false, cancel: true, errMsg: 'ok' })
    await renderPage('pages/user/privacy')
    fireEvent.click(await screen.findByText('撤回'))
    await waitFor(() => expect(modal).toHaveBeenCalled())
    expect(withdrawConsent).not.toHaveBeenCalled()
  })
})
