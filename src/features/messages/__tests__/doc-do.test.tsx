import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { listReceivedGrants, type ReceivedGrant } from '@/services/shares'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/shares', () => ({
  ...jest.requireActual<typeof import('@/services/shares')>('@/services/shares'),
  listReceivedGrants: jest.fn(),
}))

const GRANT: ReceivedGrant = {
  id: 'g1',
  status: 'active',
  statusLabel: '有效',
  sharerMasked: '张**',
  records: [
    {
      kind: 'exam',
      id: 'x1',
      examId: 'x1',
      title: '胸部CT平扫',
      hospitalName: null,
      studyDate: null,
      modalities: ['CT'],
      private: false,
    },
  ],
  expiresAt: '2099-01-02T03:04:00.000Z',
  createdAt: '2026-11-23T00:00:00.000Z',
  watermark: '李*',
}

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
})

describe('消息处理 (message/docDo)', () => {
  it('lists the records patients authorised, each opening the grant; says what comes later', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    jest.mocked(listReceivedGrants).mockResolvedValue([GRANT])
    const page = await renderPage('pages/message/docDo')
    fireEvent.click(await screen.findByText('张** 分享的 1 项影像或报告'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/share/share?grantId=g1' })
    expect(page.element.textContent).toContain('咨询与会诊的待办将在在线咨询功能上线后显示在这里')
  })

  it('with nothing shared it says so', async () => {
    jest.mocked(listReceivedGrants).mockResolvedValue([])
    await renderPage('pages/message/docDo')
    expect(await screen.findByText('暂无他人授权给您查看的影像或报告')).toBeTruthy()
  })
})
