import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import { CHILD, SPOUSE, family } from '@/services/__tests__/family-fixtures'
import {
  FAMILY_MESSAGES,
  addFamilyAdult,
  addFamilyChild,
  leaveFamilyManager,
  listFamily,
  removeFamilyMember,
  sendFamilyCode,
} from '@/services/family'
import { HttpError } from '@/services/http'
import { useAppStore } from '@/stores/app-store'
import { usePersonStore } from '@/stores/person-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/family', () => ({
  ...jest.requireActual<typeof import('@/services/family')>('@/services/family'),
  listFamily: jest.fn(),
  addFamilyChild: jest.fn(),
  sendFamilyCode: jest.fn(),
  addFamilyAdult: jest.fn(),
  removeFamilyMember: jest.fn(),
  leaveFamilyManager: jest.fn(),
  // Nobody invited this person as a second guardian (guardians.test.tsx covers invitations).
  listGuardianInvitations: jest.fn(() => Promise.resolve([])),
}))

const MANAGER = {
  id: 'link-mom',
  nameMasked: '王*',
  mobileMasked: '137****0002',
  relation: 'parent' as const,
  relationLabel: '父母',
  createdAt: '2026-11-19T02:00:00.000Z',
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
  usePersonStore.setState({ chosen: null })
  jest.clearAllMocks()
  jest.mocked(listFamily).mockResolvedValue(family([CHILD, SPOUSE], [MANAGER]))
  modal = jest
    .spyOn(Taro, 'showModal')
    .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('亲情卡 (relationCard)', () => {
  it('asks a signed-out person to log in and calls nothing', async () => {
    const page = await renderPage('pages/relationCard/relationCard')
    expect(page.element.textContent).toContain('登录后管理亲情卡')
    expect(listFamily).not.toHaveBeenCalled()
  })

  it('lists 本人, the members (relation, masked name, 儿童/成人) and who manages me', async () => {
    signIn()
    await renderPage('pages/relationCard/relationCard')
    expect(await screen.findByText('子女 张*宝')).toBeTruthy()
    expect(screen.getByText('张*')).toBeTruthy()
    expect(screen.getByText('儿童')).toBeTruthy()
    expect(screen.getByText('配偶 139****0001')).toBeTruthy()
    expect(screen.getByText('成人')).toBeTruthy()
    expect(screen.getByText('管理我的人')).toBeTruthy()
    expect(screen.getByText('王*')).toBeTruthy()
    expect(screen.getByText(/您是对方的父母/)).toBeTruthy()
  })

  it('解除 a member after confirming, and the lists go back to 本人 if they showed that member', async () => {
    signIn()
    usePersonStore.getState().choose({ userId: 'u1', personId: 'p-child', label: '子女 张*宝' })
    await renderPage('pages/relationCard/relationCard')
    await screen.findByText('子女 张*宝')

    modal.mockResolvedValueOnce({ confirm: false, cancel: true, errMsg: 'ok' })
    fireEvent.click(screen.getAllByText('解除')[0]!)
    await waitFor(() => expect(modal).toHaveBeenCalledTimes(1))
    expect(removeFamilyMember).not.toHaveBeenCalled()

    jest.mocked(removeFamilyMember).mockResolvedValue()
    jest.mocked(listFamily).mockResolvedValue(family([SPOUSE], [MANAGER]))
    fireEvent.click(screen.getAllByText('解除')[0]!)
    await waitFor(() => expect(removeFamilyMember).toHaveBeenCalledWith('link-child'))
    await waitFor(() => expect(screen.queryByText('子女 张*宝')).toBeNull())
    expect(usePersonStore.getState().chosen).toBeNull()
  })

  it('an adult member ends a manager’s access from their own account', async () => {
    signIn()
    jest.mocked(leaveFamilyManager).mockResolvedValue()
    await renderPage('pages/relationCard/relationCard')
    await screen.findByText('王*')
    const loads = jest.mocked(listFamily).mock.calls.length
    jest.mocked(listFamily).mockResolvedValue(family([CHILD, SPOUSE], []))
    fireEvent.click(screen.getAllByText('解除').at(-1)!)
    await waitFor(() => expect(leaveFamilyManager).toHaveBeenCalledWith('link-mom'))
    await waitFor(() => expect(screen.queryByText('管理我的人')).toBeNull())
    expect(jest.mocked(listFamily).mock.calls.length).toBeGreaterThan(loads)
  })

  it('添加儿童 needs the guardian statement, sends name and number, and shows the server’s refusal', async () => {
    signIn()
    await renderPage('pages/relationCard/relationCard')
    fireEvent.click(await screen.findByText('添加儿童'))
    type('与身份证或户口簿一致', '张小宝')
    type('儿童的 18 位身份证号', '11010120200101001x')
    fireEvent.click(screen.getByText('添加'))
    expect(await screen.findByText(FAMILY_MESSAGES.guardianConfirm)).toBeTruthy()
    expect(addFamilyChild).not.toHaveBeenCalled()

    fireEvent.click(screen.getByText('我是该儿童的监护人'))
    jest
      .mocked(addFamilyChild)
      .mockRejectedValueOnce(
        new HttpError(
          { statusCode: 400, data: { message: FAMILY_MESSAGES.notChild }, header: {} },
          'status',
        ),
      )
    fireEvent.click(screen.getByText('添加'))
    expect(await screen.findByText(FAMILY_MESSAGES.notChild)).toBeTruthy()
    expect(addFamilyChild).toHaveBeenCalledWith('张小宝', '11010120200101001X')

    jest.mocked(addFamilyChild).mockResolvedValueOnce(CHILD)
    fireEvent.click(screen.getByText('添加'))
    // Back on the list.
    expect(await screen.findByText('我管理的家人')).toBeTruthy()
  })

  it('添加成年家人 sends the code to THEIR phone and adds them with the chosen relation', async () => {
    signIn()
    jest.mocked(sendFamilyCode).mockResolvedValue()
    jest.mocked(addFamilyAdult).mockResolvedValue(SPOUSE)
    await renderPage('pages/relationCard/relationCard')
    fireEvent.click(await screen.findByText('添加成年家人'))
    type('请输入家人的手机号', '13900000001')
    fireEvent.click(screen.getByText('获取验证码'))
    await waitFor(() => expect(sendFamilyCode).toHaveBeenCalledWith('13900000001'))
    expect(await screen.findByText(/重新获取\(\d+s\)/)).toBeTruthy()

    type('请输入验证码', '123456')
    fireEvent.click(screen.getByText('添加'))
    expect(await screen.findByText('请选择与您的关系')).toBeTruthy()
    expect(addFamilyAdult).not.toHaveBeenCalled()

    fireEvent.click(screen.getByText('配偶'))
    fireEvent.click(screen.getByText('添加'))
    await waitFor(() =>
      expect(addFamilyAdult).toHaveBeenCalledWith('13900000001', '123456', 'spouse'),
    )
    expect(await screen.findByText('我管理的家人')).toBeTruthy()
  })
})
