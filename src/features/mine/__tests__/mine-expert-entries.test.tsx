import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { MineView } from '../components/mine-view'
import { renderComponent } from '../../../../jest/taro-render'

const EXPERT = profile({ id: 'e7', nickname: '李医生', role: 'expert' })
const PATIENT = profile({ id: 'u1', role: 'patient' })

function row(title: string): string {
  const cell = Array.from(document.querySelectorAll('.nut-cell')).find((el) =>
    el.textContent?.startsWith(title),
  )
  return cell?.textContent ?? ''
}

describe('我的: an expert’s own entries (issue 20)', () => {
  let navigateTo: jest.SpyInstance
  beforeEach(() => {
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  })

  it('我的主页 opens the expert’s own public page, 服务设置 the settings; neither says 即将上线', async () => {
    await renderComponent(<MineView loggedIn userName="李医生" profile={EXPERT} role="expert" />)
    expect(row('我的主页')).not.toContain('即将上线')
    expect(row('服务设置')).not.toContain('即将上线')
    // 患者咨询 is real since issue 21, 我的钱包 since issue 22.
    expect(row('患者咨询')).not.toContain('即将上线')
    expect(row('我的钱包')).not.toContain('即将上线')
    fireEvent.click(screen.getByText('我的主页'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalDetail/personalDetail?id=e7',
    })
    fireEvent.click(screen.getByText('服务设置'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/experts/services' })
    fireEvent.click(screen.getByText('患者咨询'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/docQuestList/docQuestList' })
    fireEvent.click(screen.getByText('我的钱包'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/myWallet/myWallet' })
  })

  it('follows the role-right tree, and a patient has neither', async () => {
    await renderComponent(
      <MineView
        loggedIn
        userName="李医生"
        profile={EXPERT}
        role="expert"
        allowedPaths={new Set(['pages/experts/services'])}
      />,
    )
    expect(screen.getByText('服务设置')).toBeTruthy()
    expect(screen.queryByText('我的主页')).toBeNull()
  })

  it('a patient sees neither', async () => {
    await renderComponent(<MineView loggedIn userName="张三" profile={PATIENT} role="patient" />)
    expect(screen.queryByText('我的主页')).toBeNull()
    expect(screen.queryByText('服务设置')).toBeNull()
  })
})
