import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { countUnreadMessages } from '@/services/messages'
import { getRoleRights, refreshProfile } from '@/services/profile'
import { listReceivedGrants, type ReceivedGrant } from '@/services/shares'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { MineView } from '../components/mine-view'
import { useMine } from '../hooks/use-mine'
import { renderComponent } from '../../../../jest/taro-render'

// 专家认证's state on 我的 (issue 20): never applied, unless a test says otherwise.
jest.mock('@/services/experts', () => ({
  ...jest.requireActual<typeof import('@/services/experts')>('@/services/experts'),
  getMyExpertApplication: jest.fn().mockResolvedValue(null),
}))
jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  getRoleRights: jest.fn(),
  refreshProfile: jest.fn(),
}))
jest.mock('@/services/messages', () => ({
  ...jest.requireActual<typeof import('@/services/messages')>('@/services/messages'),
  countUnreadMessages: jest.fn(),
}))
jest.mock('@/services/shares', () => ({
  ...jest.requireActual<typeof import('@/services/shares')>('@/services/shares'),
  listReceivedGrants: jest.fn(),
}))

function Page() {
  return <MineView {...useMine()} />
}

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

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.mocked(refreshProfile).mockResolvedValue(profile())
  jest.mocked(countUnreadMessages).mockResolvedValue(0)
})
afterEach(() => navigateTo.mockRestore())

describe('Mine: 共享给我的', () => {
  it('lists grants received and opens one by its grant', async () => {
    useAppStore.getState().setProfile(profile())
    jest.mocked(getRoleRights).mockResolvedValue({ role: 'patient', tree: [] })
    jest.mocked(listReceivedGrants).mockResolvedValue([GRANT])
    await renderComponent(<Page />)
    await settle()
    expect(screen.getByText('共享给我的')).toBeTruthy()
    expect(screen.getByText(/有效期至 2099-01-0/)).toBeTruthy()
    fireEvent.click(screen.getByText('张** 分享的 1 项影像或报告'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/share/share?grantId=g1' })
  })

  it('a patient with nothing received sees no section; an expert sees it empty', async () => {
    useAppStore.getState().setProfile(profile())
    jest.mocked(getRoleRights).mockResolvedValue({ role: 'patient', tree: [] })
    jest.mocked(listReceivedGrants).mockResolvedValue([])
    const first = await renderComponent(<Page />)
    await settle()
    expect(screen.queryByText('共享给我的')).toBeNull()
    first.unmount()

    jest.mocked(getRoleRights).mockResolvedValue({ role: 'expert', tree: [] })
    await renderComponent(<Page />)
    await settle()
    expect(screen.getByText('共享给我的')).toBeTruthy()
    expect(screen.getByText('暂无他人授权给您查看的影像或报告')).toBeTruthy()
  })

  it('signed out: nothing asked, nothing shown', async () => {
    await renderComponent(<Page />)
    await settle()
    expect(listReceivedGrants).not.toHaveBeenCalled()
    expect(screen.queryByText('共享给我的')).toBeNull()
  })
})
