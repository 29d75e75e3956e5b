import { act, fireEvent, screen } from '@testing-library/react'
import { REASONS } from '@contract/reasons'
import { typeInto } from '@/components/form/__tests__/inputs'
import { mount } from '@/components/form/__tests__/mount'
import { FORM_MESSAGES } from '@/components/form/rules'
import { HttpError } from '@/services/http'
import {
  appealIdCard,
  bindIdCard,
  listBoundCards,
  listIdCardAppeals,
  refreshProfile,
  verifyIdCard,
  type BoundCard,
  type IdCardAppeal,
} from '@/services/profile'
import { idCardCheckChar } from '@/utils/validators'
import { IdCardView } from '../components/idcard-view'
import { useIdCard } from '../hooks/use-idcard'

jest.mock('@/services/profile', () => {
  const actual: Record<string, unknown> = jest.requireActual('@/services/profile')
  return {
    ...actual,
    bindIdCard: jest.fn(),
    listBoundCards: jest.fn(),
    refreshProfile: jest.fn(),
    listIdCardAppeals: jest.fn(),
    verifyIdCard: jest.fn(),
    appealIdCard: jest.fn(),
  }
})

const mockedList = jest.mocked(listBoundCards)
const mockedBind = jest.mocked(bindIdCard)

function Page() {
  return <IdCardView model={useIdCard()} />
}

const FIRST17 = '11010519491231002'
const VALID = `${FIRST17}${idCardCheckChar(FIRST17)}`
const WRONG = `${FIRST17}${idCardCheckChar(FIRST17) === '1' ? '2' : '1'}`
const CARD: BoundCard = {
  id: 'c1',
  kind: 'idcard',
  holderMasked: '张*',
  numberMasked: '110***********002X',
  createdAt: '2026-01-05T08:00:00.000Z',
  status: 'bound',
}

function refusal(error: string, reason: string | null = null) {
  return new HttpError(
    {
      statusCode: 400,
      header: {},
      data: { code: 400, message: 'Bad Request', data: null, error, reason },
    },
    'business',
  )
}

const APPEAL: IdCardAppeal = {
  id: 'a1',
  status: 'pending',
  statusLabel: '处理中',
  numberMasked: '110***********002X',
  reason: '这是我本人的身份证',
  contact: '13800138000',
  operatorNote: null,
  createdAt: '2026-11-23T08:00:00.000Z',
  updatedAt: '2026-11-23T08:00:00.000Z',
}

function type(placeholder: string, value: string) {
  fireEvent.input(screen.getAllByPlaceholderText(placeholder).at(-1) as HTMLElement, {
    target: { value },
  })
}

async function flush() {
  await act(async () => {
    await Promise.resolve()
  })
}

describe('实名认证', () => {
  beforeEach(() => {
    jest.mocked(refreshProfile).mockResolvedValue({} as never)
    jest.mocked(listIdCardAppeals).mockResolvedValue([])
  })

  it('shows the bound card masked when one exists', async () => {
    mockedList.mockResolvedValue([CARD])
    await mount(Page)
    expect(await screen.findByText('110***********002X')).toBeTruthy()
    expect(screen.getByText('张*')).toBeTruthy()
    expect(screen.queryByText('提交认证')).toBeNull()
    // Records by the bound card work: the page says where they show, not 即将上线.
    expect(screen.getByText(/会显示在个人影像和个人报告中/)).toBeTruthy()
    expect(document.body.textContent).not.toContain('即将上线')
  })

  it('says what binding gives (the hospital records), not 即将上线', async () => {
    mockedList.mockResolvedValue([])
    await mount(Page)
    await screen.findByText('提交认证')
    expect(screen.getByText(/会显示在个人影像和个人报告中/)).toBeTruthy()
    expect(document.body.textContent).not.toContain('即将上线')
  })

  it('says the check digit is wrong as soon as 18 characters are typed, and sends nothing', async () => {
    mockedList.mockResolvedValue([])
    await mount(Page)
    await screen.findByText('提交认证')
    type('与身份证一致', '张三')
    type('18 位居民身份证号', WRONG.slice(0, 17))
    expect(screen.queryByRole('alert')).toBeNull()
    type('18 位居民身份证号', WRONG)
    expect(screen.getByText(FORM_MESSAGES.idCardCheck)).toBeTruthy()
    fireEvent.click(screen.getByText('提交认证'))
    expect(mockedBind).not.toHaveBeenCalled()
  })

  it('upper-cases x, binds a valid card and shows it masked', async () => {
    mockedList.mockResolvedValue([])
    mockedBind.mockResolvedValue(CARD)
    await mount(Page)
    await screen.findByText('提交认证')
    type('与身份证一致', '张三')
    type('18 位居民身份证号', VALID.toLowerCase())
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(screen.getByText('提交认证'))
    await flush()
    expect(mockedBind).toHaveBeenCalledWith('张三', VALID.toUpperCase())
    expect(await screen.findByText('110***********002X')).toBeTruthy()
    expect(refreshProfile).toHaveBeenCalled()
  })

  it("shows the server's message when it refuses, and keeps what was typed", async () => {
    mockedList.mockResolvedValue([])
    mockedBind.mockRejectedValue(
      new HttpError(
        {
          statusCode: 400,
          header: {},
          data: {
            code: 400,
            message: 'Bad Request',
            data: null,
            error: '该身份证已被其他账号绑定',
          },
        },
        'business',
      ),
    )
    await mount(Page)
    await screen.findByText('提交认证')
    type('与身份证一致', '张三')
    type('18 位居民身份证号', VALID)
    fireEvent.click(screen.getByText('提交认证'))
    expect(await screen.findByText('该身份证已被其他账号绑定')).toBeTruthy()
    expect(screen.getByText('提交认证')).toBeTruthy()
  })

  it('offers a retry when the card list cannot load', async () => {
    mockedList.mockRejectedValueOnce(new Error('offline')).mockResolvedValueOnce([])
    await mount(Page)
    fireEvent.click(await screen.findByText('重试'))
    expect(await screen.findByText('提交认证')).toBeTruthy()
  })

  it('says 已绑定 for a stored card, and 已实名 only when the provider verified it', async () => {
    mockedList.mockResolvedValue([CARD])
    jest.mocked(verifyIdCard).mockRejectedValueOnce(refusal('未配置实名核验'))
    await mount(Page)
    expect(await screen.findByText('已绑定')).toBeTruthy()
    expect(screen.queryByText('已实名')).toBeNull()
    fireEvent.click(screen.getByText('去实名核验'))
    expect(await screen.findByText('未配置实名核验')).toBeTruthy()
    expect(screen.getByText('已绑定')).toBeTruthy()
    jest.mocked(verifyIdCard).mockResolvedValueOnce({ ...CARD, status: 'verified' })
    fireEvent.click(screen.getByText('去实名核验'))
    expect(await screen.findByText('已实名')).toBeTruthy()
    expect(screen.queryByText('去实名核验')).toBeNull()
  })

  it('offers an appeal for a number bound elsewhere, and shows its status', async () => {
    mockedList.mockResolvedValue([])
    mockedBind.mockRejectedValue(refusal('该身份证已被其他账号绑定', REASONS.idCardTaken))
    jest.mocked(appealIdCard).mockResolvedValue(APPEAL)
    await mount(Page)
    await screen.findByText('提交认证')
    type('与身份证一致', '张三')
    type('18 位居民身份证号', VALID)
    fireEvent.click(screen.getByText('提交认证'))
    fireEvent.click(await screen.findByText('这是我的身份证，提交申诉'))
    fireEvent.click(screen.getByText('提交申诉'))
    expect(screen.getByText('请填写申诉说明')).toBeTruthy()
    expect(screen.getByText('请填写联系方式')).toBeTruthy()
    typeInto('例如：此身份证是我本人的，从未在其他账号绑定过', '这是我本人的身份证')
    typeInto('手机号或邮箱', 'not-a-contact')
    fireEvent.click(screen.getByText('提交申诉'))
    expect(screen.getByText('请填写正确的手机号或邮箱')).toBeTruthy()
    typeInto('手机号或邮箱', '13800138000')
    fireEvent.click(screen.getByText('提交申诉'))
    await flush()
    expect(appealIdCard).toHaveBeenCalledWith({
      realName: '张三',
      idCard: VALID,
      reason: '这是我本人的身份证',
      contact: '13800138000',
    })
    expect(await screen.findByText('我的申诉')).toBeTruthy()
    expect(screen.getByText('处理中')).toBeTruthy()
  })

  it('offers the appeal by the server’s reason, not by its words', async () => {
    mockedList.mockResolvedValue([])
    mockedBind
      // The same words with another reason (or none): no appeal.
      .mockRejectedValueOnce(refusal('该身份证已被其他账号绑定', REASONS.mobileInUse))
      .mockRejectedValueOnce(refusal('该身份证已被其他账号绑定'))
      // Reworded, with the reason: the appeal is offered.
      .mockRejectedValueOnce(refusal('此身份证已在另一个账号绑定', REASONS.idCardTaken))
    await mount(Page)
    await screen.findByText('提交认证')
    type('与身份证一致', '张三')
    type('18 位居民身份证号', VALID)
    fireEvent.click(screen.getByText('提交认证'))
    expect(await screen.findByText('该身份证已被其他账号绑定')).toBeTruthy()
    expect(screen.queryByText('这是我的身份证，提交申诉')).toBeNull()
    fireEvent.click(screen.getByText('提交认证'))
    await flush()
    expect(mockedBind).toHaveBeenCalledTimes(2)
    expect(screen.getByText('该身份证已被其他账号绑定')).toBeTruthy()
    expect(screen.queryByText('这是我的身份证，提交申诉')).toBeNull()
    fireEvent.click(screen.getByText('提交认证'))
    expect(await screen.findByText('此身份证已在另一个账号绑定')).toBeTruthy()
    expect(screen.getByText('这是我的身份证，提交申诉')).toBeTruthy()
  })
})
