import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { CHILD, SPOUSE, family } from '@/services/__tests__/family-fixtures'
import {
  FAMILY_MESSAGES,
  acceptGuardianInvitation,
  declineGuardianInvitation,
  inviteGuardian,
  listFamily,
  listGuardianInvitations,
  sendGuardianInvitationCode,
  type GuardianInvitation,
} from '@/services/family'
import { HttpError } from '@/services/http'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/family', () => ({
  ...jest.requireActual<typeof import('@/services/family')>('@/services/family'),
  listFamily: jest.fn(),
  inviteGuardian: jest.fn(),
  listGuardianInvitations: jest.fn(),
  sendGuardianInvitationCode: jest.fn(),
  acceptGuardianInvitation: jest.fn(),
  declineGuardianInvitation: jest.fn(),
}))

/** 共同监护人 in 亲情卡: inviting the other parent, and answering an invitation to my phone. */

const INVITATION: GuardianInvitation = {
  id: 'inv-1',
  childNameMasked: '张*宝',
  inviterNameMasked: '李*',
  inviterMobileMasked: '138****0001',
  createdAt: '2026-11-20T02:00:00.000Z',
  expiresAt: '2026-11-27T02:00:00.000Z',
}

function signIn() {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
}

function type(placeholder: string, value: string) {
  const input = screen.getAllByPlaceholderText(placeholder).at(-1)!
  fireEvent.input(input, { target: { value } })
  fireEvent.blur(input)
}

let modal: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  signIn()
  jest.mocked(listFamily).mockResolvedValue(family([CHILD, SPOUSE]))
  jest.mocked(listGuardianInvitations).mockResolvedValue([])
  modal = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('亲情卡: 共同监护人', () => {
  it('邀请监护人 is offered on a child, not on an adult, and sends the other parent’s phone', async () => {
    await renderPage('pages/relationCard/relationCard')
    await screen.findByText('子女 张*宝')
    expect(screen.getAllByText('邀请监护人')).toHaveLength(1)

    fireEvent.click(screen.getByText('邀请监护人'))
    expect(await screen.findByText('为子女 张*宝邀请另一位监护人')).toBeTruthy()
    fireEvent.click(screen.getByText('发送邀请'))
    expect(inviteGuardian).not.toHaveBeenCalled()

    jest
      .mocked(inviteGuardian)
      .mockRejectedValueOnce(
        new HttpError(
          { statusCode: 400, data: { message: FAMILY_MESSAGES.inviteSelf }, header: {} },
          'status',
        ),
      )
    type('孩子另一位监护人的手机号', '13800000009')
    fireEvent.click(screen.getByText('发送邀请'))
    expect(await screen.findByText(FAMILY_MESSAGES.inviteSelf)).toBeTruthy()

    jest.mocked(inviteGuardian).mockResolvedValueOnce()
    fireEvent.click(screen.getByText('发送邀请'))
    await waitFor(() =>
      expect(inviteGuardian).toHaveBeenLastCalledWith('link-child', '13800000009'),
    )
    expect(await screen.findByText('我管理的家人')).toBeTruthy()
  })

  it('an invitation to my phone: a code to my own phone, then 接受, and the child is on my card', async () => {
    jest.mocked(listGuardianInvitations).mockResolvedValue([INVITATION])
    jest.mocked(listFamily).mockResolvedValue(family([SPOUSE]))
    jest.mocked(sendGuardianInvitationCode).mockResolvedValue()
    jest.mocked(acceptGuardianInvitation).mockResolvedValue(CHILD)
    await renderPage('pages/relationCard/relationCard')
    expect(await screen.findByText('李* 邀请您一同监护 张*宝')).toBeTruthy()

    fireEvent.click(screen.getByText('获取验证码'))
    await waitFor(() => expect(sendGuardianInvitationCode).toHaveBeenCalledWith('inv-1'))
    type('请输入验证码', '123456')

    jest.mocked(listGuardianInvitations).mockResolvedValue([])
    jest.mocked(listFamily).mockResolvedValue(family([SPOUSE, CHILD]))
    fireEvent.click(screen.getByText('接受'))
    await waitFor(() => expect(acceptGuardianInvitation).toHaveBeenCalledWith('inv-1', '123456'))
    await waitFor(() => expect(screen.queryByText('待处理的共同监护邀请')).toBeNull())
    expect(await screen.findByText('子女 张*宝')).toBeTruthy()
  })

  it('拒绝 asks first, and a refused answer shows the server’s words', async () => {
    jest.mocked(listGuardianInvitations).mockResolvedValue([INVITATION])
    await renderPage('pages/relationCard/relationCard')
    await screen.findByText('待处理的共同监护邀请')

    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'ok' })
    fireEvent.click(screen.getByText('拒绝'))
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(declineGuardianInvitation).not.toHaveBeenCalled()

    jest
      .mocked(declineGuardianInvitation)
      .mockRejectedValueOnce(
        new HttpError(
          { statusCode: 404, data: { message: FAMILY_MESSAGES.invitationGone }, header: {} },
          'status',
        ),
      )
    fireEvent.click(screen.getByText('拒绝'))
    expect(await screen.findByText(FAMILY_MESSAGES.invitationGone)).toBeTruthy()

    jest.mocked(declineGuardianInvitation).mockResolvedValueOnce()
    jest.mocked(listGuardianInvitations).mockResolvedValue([])
    fireEvent.click(screen.getByText('拒绝'))
    await waitFor(() => expect(screen.queryByText('待处理的共同监护邀请')).toBeNull())
  })
})
