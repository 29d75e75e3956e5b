import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { UserProfile } from '@contract/sso/auth'
import { getRoleRights, refreshProfile } from '@/services/profile'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { routeByName } from '@/routes'
import { MineView } from '../components/mine-view'
import { MINE_GROUPS } from '../entries'
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

const PATIENT: UserProfile = {
  id: 'u1',
  mobileMasked: '138****0001',
  nickname: '张三',
  avatarUrl: null,
  role: 'patient',
  realNameVerified: false,
  hasPassword: true,
  wechatBound: false,
  createdAt: '2026-01-01T00:00:00.000Z',
}
const EXPERT: UserProfile = { ...PATIENT, id: 'u2', nickname: '李医生', role: 'expert' }

describe('MineView', () => {
  let navigateTo: jest.SpyInstance
  beforeEach(() => {
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  })

  it('invites a signed-out user to log in, and sends personal entries through login', async () => {
    await renderComponent(<MineView loggedIn={false} userName="" />)
    fireEvent.click(screen.getByText('登录 / 注册'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/login/login' })
    fireEvent.click(screen.getByText('个人报告'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/personalReport/index')}`,
    })
    fireEvent.click(screen.getByText('我的上传'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/personalReport/index-ys')}`,
    })
  })

  it('names the hospital reports 个人报告 and the own uploads 我的上传, never 我的报告', async () => {
    await renderComponent(<MineView loggedIn userName="张三" profile={PATIENT} />)
    // index-ys keeps the spec's title 我的报告, but its entry must not read as the hospital reports.
    expect(screen.queryByText('我的报告')).toBeNull()
    fireEvent.click(screen.getByText('个人报告'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalReport/index' })
    fireEvent.click(screen.getByText('我的上传'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/personalReport/index-ys' })
  })

  it('links only to routes of the spec', async () => {
    for (const entry of MINE_GROUPS.flat()) expect(routeByName(entry.route)).toBeDefined()
  })

  it('says 即将上线 only beside entries whose page does not work yet (none since the wallet)', async () => {
    const { container } = await renderComponent(
      <MineView loggedIn userName="李医生" profile={EXPERT} role="expert" />,
    )
    const row = (title: string) =>
      Array.from(container.querySelectorAll('.nut-cell')).find((cell) =>
        cell.textContent?.startsWith(title),
      )?.textContent ?? ''
    // 我的钱包 works since issue 22.
    expect(row('我的钱包')).not.toContain('即将上线')
    expect(container.textContent).not.toContain('即将上线')
    // 个人报告 and 我的上传 (the patient's own uploads) work since the records issue.
    expect(row('个人报告')).not.toContain('即将上线')
    expect(row('我的上传')).not.toContain('即将上线')
    expect(row('设置')).not.toContain('即将上线')
    expect(row('关于我们')).not.toContain('即将上线')
    // Certification is built (issue 20); before its state has loaded it claims none.
    expect(row('专家认证')).not.toContain('即将上线')
    expect(row('专家认证')).not.toContain('已认证')
  })

  it("says where my expert application stands, in the server's words", async () => {
    const { container } = await renderComponent(
      <MineView
        loggedIn
        userName="张三"
        profile={PATIENT}
        expertApplication={{ status: 'pending', statusLabel: '待审核' }}
      />,
    )
    const cell = Array.from(container.querySelectorAll('.nut-cell')).find((one) =>
      one.textContent?.startsWith('专家认证'),
    )
    expect(cell?.textContent).toContain('待审核')
    fireEvent.click(screen.getByText('专家认证'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/expertPerfect/expertPerfect' })
  })

  it('opens public entries directly', async () => {
    await renderComponent(<MineView loggedIn={false} userName="" />)
    fireEvent.click(screen.getByText('关于我们'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/about/about' })
  })

  it('a patient sees name, masked phone and 申请成为专家, but no expert entries', async () => {
    await renderComponent(
      <MineView
        loggedIn
        userName="张三"
        profile={PATIENT}
        role="patient"
        expertApplication={null}
      />,
    )
    expect(screen.getByText('张三')).toBeTruthy()
    expect(screen.getByText('手机号 138****0001')).toBeTruthy()
    expect(screen.queryByText('登录 / 注册')).toBeNull()
    expect(screen.getByText('申请成为专家')).toBeTruthy()
    expect(screen.queryByText('患者咨询')).toBeNull()
    expect(screen.queryByText('我的钱包')).toBeNull()
    fireEvent.click(screen.getByText('张三'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/userInfo/userInfo' })
  })

  it('shows 我的文章: articles read, liked and favourited; 收藏 opens 我的收藏', async () => {
    await renderComponent(
      <MineView
        loggedIn
        userName="张三"
        profile={PATIENT}
        articleCounts={{ read: 12, liked: 3, favourited: 5 }}
      />,
    )
    const stats = screen.getByLabelText('我的文章')
    expect(stats.textContent).toBe('12阅读文章3点赞5收藏')
    fireEvent.click(screen.getByText('收藏'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/collectList/collectList' })
  })

  it('shows no counts signed out', async () => {
    await renderComponent(
      <MineView
        loggedIn={false}
        userName=""
        articleCounts={{ read: 1, liked: 0, favourited: 0 }}
      />,
    )
    expect(screen.queryByLabelText('我的文章')).toBeNull()
  })

  it('an expert sees 患者咨询, 我的钱包 and 专家认证 (without a state it cannot know yet)', async () => {
    await renderComponent(<MineView loggedIn userName="李医生" profile={EXPERT} role="expert" />)
    expect(screen.getByText('专家')).toBeTruthy()
    expect(screen.queryByText('已认证')).toBeNull()
    fireEvent.click(screen.getByText('专家认证'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/expertPerfect/expertPerfect' })
    fireEvent.click(screen.getByText('患者咨询'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/docQuestList/docQuestList' })
    fireEvent.click(screen.getByText('我的钱包'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/myWallet' })
  })

  it('the role-right tree decides which role entries show', async () => {
    await renderComponent(
      <MineView
        loggedIn
        userName="李医生"
        profile={EXPERT}
        role="expert"
        allowedPaths={new Set(['pages/myWallet/myWallet'])}
      />,
    )
    expect(screen.getByText('我的钱包')).toBeTruthy()
    expect(screen.queryByText('患者咨询')).toBeNull()
  })
})

describe('useMine', () => {
  function Page() {
    return <MineView {...useMine()} />
  }

  beforeEach(() => {
    resetStores()
  })

  it('takes the role from the server when signed in', async () => {
    useAppStore.getState().setProfile(PATIENT)
    jest.mocked(refreshProfile).mockResolvedValue(PATIENT)
    jest.mocked(getRoleRights).mockResolvedValue({
      role: 'expert',
      tree: [
        {
          key: 'doctorConsult',
          title: '患者咨询',
          children: [{ key: 'd', title: '患者咨询', path: 'pages/docQuestList/docQuestList' }],
        },
      ],
    })
    await renderComponent(<Page />)
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 0))
    })
    expect(refreshProfile).toHaveBeenCalled()
    // Background refreshes stay quiet offline: the stored profile is still shown.
    expect(refreshProfile).toHaveBeenCalledWith({ loading: false, quietOffline: true })
    expect(getRoleRights).toHaveBeenCalledWith({ loading: false, quietOffline: true })
    expect(screen.getByText('患者咨询')).toBeTruthy()
    expect(screen.queryByText('我的钱包')).toBeNull()
  })

  it('signed out: no calls, patient entries', async () => {
    await renderComponent(<Page />)
    expect(screen.getByText('登录 / 注册')).toBeTruthy()
    expect(getRoleRights).not.toHaveBeenCalled()
  })
})
