import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile, refusal } from '@/services/__tests__/account-fixtures'
import {
  EXPERT_PROFILE_MESSAGES,
  getMyExpertSettings,
  updateMyExpertProfile,
  updateMyExpertServices,
} from '@/services/expert-profiles'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../../jest/taro-render'
import { expertProfile, settings } from '../../__tests__/fixtures'
import { PRICE_FORMAT_MESSAGE } from '../hooks/use-expert-settings'

jest.mock('@/services/expert-profiles', () => ({
  ...jest.requireActual<typeof import('@/services/expert-profiles')>('@/services/expert-profiles'),
  getMyExpertSettings: jest.fn(),
  updateMyExpertProfile: jest.fn(),
  updateMyExpertServices: jest.fn(),
}))

const get = jest.mocked(getMyExpertSettings)
const saveServices = jest.mocked(updateMyExpertServices)
const saveProfile = jest.mocked(updateMyExpertProfile)

function signIn(role: 'expert' | 'patient' = 'expert') {
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile({ id: 'e1', role }))
}

/** Taro draws an input as its element with the real <input> inside; both carry the placeholder. */
function priceInput(index: number): HTMLInputElement {
  return document.querySelectorAll<HTMLInputElement>('input[placeholder^="如 "]')[index]!
}

function field(placeholder: string): HTMLInputElement {
  return document.querySelector<HTMLInputElement>(
    `input[placeholder="${placeholder}"], textarea[placeholder="${placeholder}"]`,
  )!
}

function type(input: HTMLElement, value: string) {
  fireEvent.input(input, { target: { value } })
  fireEvent.blur(input)
}

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
  get.mockResolvedValue(settings())
  saveServices.mockImplementation(async (input) =>
    settings({
      dailyLimit: input.dailyLimit,
      profile: expertProfile({
        self: true,
        accepting: input.accepting,
        services: expertProfile().services.map((service) => {
          const sent = input.services.find((one) => one.kind === service.kind)!
          return { ...service, enabled: sent.enabled, priceFen: sent.priceFen }
        }),
      }),
    }),
  )
})

describe('服务设置 (experts/services)', () => {
  it('tells someone who is not an expert so, without asking the server', async () => {
    signIn('patient')
    await renderPage('pages/experts/services')
    expect(await screen.findByText(EXPERT_PROFILE_MESSAGES.notCertified)).toBeTruthy()
    expect(get).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('去认证'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/expertPerfect/expertPerfect' }),
    )
  })

  it('shows prices in 元 and sends them as exact integer fen', async () => {
    signIn()
    await renderPage('pages/experts/services')
    await waitFor(() => expect(priceInput(0).value).toBe('30'))
    expect(priceInput(1).value).toBe('200.50')
    type(priceInput(0), '30.5')
    type(priceInput(1), '0.1')
    fireEvent.click(screen.getByText('保存服务设置'))
    // 0.1 元 is below 影像会诊's floor: the contract's words, nothing sent.
    expect(await screen.findByText(EXPERT_PROFILE_MESSAGES.priceRange('imaging'))).toBeTruthy()
    expect(saveServices).not.toHaveBeenCalled()

    type(priceInput(1), '1999.99')
    fireEvent.click(screen.getByText('保存服务设置'))
    await waitFor(() => expect(saveServices).toHaveBeenCalledTimes(1))
    expect(saveServices).toHaveBeenCalledWith({
      accepting: true,
      dailyLimit: 20,
      followupLimit: 3,
      services: [
        { kind: 'text', enabled: true, priceFen: 3050 },
        { kind: 'imaging', enabled: true, priceFen: 199_999 },
      ],
    })
  })

  it('refuses three decimals and prices outside the platform’s bounds', async () => {
    signIn()
    await renderPage('pages/experts/services')
    await waitFor(() => expect(priceInput(0).value).toBe('30'))
    type(priceInput(0), '30.505')
    expect(await screen.findByText(PRICE_FORMAT_MESSAGE)).toBeTruthy()
    type(priceInput(0), '5')
    expect(await screen.findByText('图文咨询价格应在 ¥10 至 ¥1000 之间')).toBeTruthy()
    type(priceInput(0), '1000.01')
    expect(await screen.findByText('图文咨询价格应在 ¥10 至 ¥1000 之间')).toBeTruthy()
    fireEvent.click(screen.getByText('保存服务设置'))
    expect(saveServices).not.toHaveBeenCalled()
  })

  it('checks the daily limit, and a service turned off keeps its saved price unchecked', async () => {
    signIn()
    await renderPage('pages/experts/services')
    await waitFor(() => expect(priceInput(0).value).toBe('30'))
    type(priceInput(0), 'abc')
    fireEvent.click(screen.getByLabelText('开通图文咨询'))
    expect(await screen.findByText('未开通，患者看不到此项服务')).toBeTruthy()
    const limit = field('1 至 100')
    type(limit, '101')
    expect(await screen.findByText(EXPERT_PROFILE_MESSAGES.dailyLimit)).toBeTruthy()
    type(limit, '8')
    const followups = field('0 至 10')
    type(followups, '11')
    expect(await screen.findByText(EXPERT_PROFILE_MESSAGES.followupLimit)).toBeTruthy()
    type(followups, '5')
    fireEvent.click(screen.getByText('保存服务设置'))
    await waitFor(() =>
      expect(saveServices).toHaveBeenCalledWith({
        accepting: true,
        dailyLimit: 8,
        followupLimit: 5,
        services: [
          { kind: 'text', enabled: false, priceFen: 3000 },
          { kind: 'imaging', enabled: true, priceFen: 20050 },
        ],
      }),
    )
  })

  it('shows the server’s refusal above the button', async () => {
    signIn()
    saveServices.mockRejectedValue(refusal('每种服务只能设置一次'))
    await renderPage('pages/experts/services')
    await waitFor(() => expect(priceInput(0).value).toBe('30'))
    fireEvent.click(screen.getByText('保存服务设置'))
    expect(
      await screen.findByText('每种服务只能设置一次', { selector: '.form-error' }),
    ).toBeTruthy()
  })

  it('接诊中 / 暂停接诊 saves at once with what the server has', async () => {
    signIn()
    await renderPage('pages/experts/services')
    await screen.findByText('接诊中')
    fireEvent.click(screen.getByLabelText('接诊中'))
    await waitFor(() =>
      expect(saveServices).toHaveBeenCalledWith({
        accepting: false,
        dailyLimit: 20,
        followupLimit: 3,
        services: [
          { kind: 'text', enabled: true, priceFen: 3000 },
          { kind: 'imaging', enabled: true, priceFen: 20050 },
        ],
      }),
    )
    expect(await screen.findByText('暂停接诊')).toBeTruthy()
  })

  it('shows the platform’s suspension with its reason, and a change under review', async () => {
    signIn()
    get.mockResolvedValue(
      settings({
        suspension: { reason: '执业信息待复核', at: '2026-11-25T00:00:00.000Z' },
        pendingChange: { applicationId: 'a2', status: 'pending' },
      }),
    )
    await renderPage('pages/experts/services')
    const banner = await screen.findByRole('alert')
    expect(banner.textContent).toBe(EXPERT_PROFILE_MESSAGES.suspended('执业信息待复核'))
    expect(
      screen.getByText('您修改医院、科室或职称的申请待审核。审核通过前，主页仍显示已认证的信息。'),
    ).toBeTruthy()
  })

  it('saves 简介 and 擅长方向 chosen as tags from the dictionary', async () => {
    signIn()
    saveProfile.mockResolvedValue(settings())
    await renderPage('pages/experts/services')
    await screen.findByText('已选 3/8')
    fireEvent.click(screen.getByText('冠脉CTA'))
    fireEvent.click(screen.getByText('肺结节'))
    expect(screen.getByText('已选 3/8')).toBeTruthy()
    // The 简介 field renders after the tags (it failed once on a loaded machine when read at once).
    await waitFor(() =>
      expect(field('介绍您的专业背景、擅长的检查和疾病，患者会在主页看到')).toBeTruthy(),
    )
    fireEvent.input(field('介绍您的专业背景、擅长的检查和疾病，患者会在主页看到'), {
      target: { value: '  胸部影像诊断。 ' },
    })
    fireEvent.click(screen.getByText('保存简介和擅长方向'))
    await waitFor(() =>
      expect(saveProfile).toHaveBeenCalledWith({
        introduction: '胸部影像诊断。',
        specialities: ['胸部影像', '肺癌筛查', '冠脉CTA'],
      }),
    )
  })

  it('asks for at least one 擅长方向', async () => {
    signIn()
    await renderPage('pages/experts/services')
    await screen.findByText('已选 3/8')
    for (const tag of ['肺结节', '胸部影像', '肺癌筛查']) fireEvent.click(screen.getByText(tag))
    fireEvent.click(screen.getByText('保存简介和擅长方向'))
    expect(await screen.findByText('请至少选择 1 个擅长方向')).toBeTruthy()
    expect(saveProfile).not.toHaveBeenCalled()
  })

  it('opens its own public page', async () => {
    signIn()
    await renderPage('pages/experts/services')
    fireEvent.click(await screen.findByText('查看我的主页（患者看到的样子）'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/personalDetail/personalDetail?id=e1',
      }),
    )
  })
})
