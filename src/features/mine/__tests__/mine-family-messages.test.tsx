import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { countUnreadMessages } from '@/services/messages'
import { getRoleRights, refreshProfile } from '@/services/profile'
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

function Page() {
  return <MineView {...useMine()} />
}

const row = (title: string) =>
  Array.from(document.querySelectorAll('.nut-cell')).find((cell) =>
    cell.textContent?.startsWith(title),
  )?.textContent ?? ''

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.mocked(refreshProfile).mockResolvedValue(profile())
  jest.mocked(getRoleRights).mockResolvedValue({ role: 'patient', tree: [] })
})
afterEach(() => navigateTo.mockRestore())

describe('Mine: 亲情卡 and 我的消息', () => {
  it('shows 我的消息’s unread count from the server, and opens 亲情卡', async () => {
    useAppStore.getState().setProfile(profile())
    jest.mocked(countUnreadMessages).mockResolvedValue(3)
    const badge = jest.spyOn(Taro, 'setTabBarBadge').mockResolvedValue({ errMsg: 'ok' })
    await renderComponent(<Page />)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(countUnreadMessages).toHaveBeenCalled()
    expect(row('我的消息')).toContain('3 条未读')
    // The Mine tab carries the count too.
    expect(badge).toHaveBeenCalledWith({ index: 1, text: '3' })
    // Built now: no 即将上线 beside them.
    expect(row('亲情卡')).not.toContain('即将上线')
    fireEvent.click(screen.getByText('亲情卡'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/relationCard/relationCard' })
  })

  it('says nothing when all is read, and asks nothing signed out', async () => {
    await renderComponent(<Page />)
    expect(countUnreadMessages).not.toHaveBeenCalled()
    expect(row('我的消息')).not.toContain('未读')
  })

  it('caps a large count', async () => {
    await renderComponent(<MineView loggedIn userName="张三" unreadMessages={120} />)
    expect(row('我的消息')).toContain('99+ 条未读')
  })
})
