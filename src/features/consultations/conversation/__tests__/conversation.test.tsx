import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  answerConsultation,
  getConsultation,
  listConsultMessages,
  markConsultRead,
  sendConsultMessage,
  type ConsultMessage,
} from '@/services/consultations'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../../jest/taro-render'
import { cursorOf, mergeMessages, visiblePending } from '../merge'
import { imagingDetail, message } from '../../__tests__/fixtures'

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  getConsultation: jest.fn(),
  listConsultMessages: jest.fn(),
  sendConsultMessage: jest.fn(),
  markConsultRead: jest.fn(),
  answerConsultation: jest.fn(),
}))

// The live source is the fallback poll (5 s); the tests say when "something may be new" themselves.
let mockLive: (() => void) | null = null
jest.mock('../hooks/use-live-refresh', () => ({
  FALLBACK_POLL_MS: 5000,
  useLiveRefresh: (onNew: () => void) => {
    mockLive = onNew
  },
}))

const list = jest.mocked(listConsultMessages)
const send = jest.mocked(sendConsultMessage)
const markRead = jest.mocked(markConsultRead)
const page = (items: ConsultMessage[], more = false) => ({
  items,
  last: items.length ? items[items.length - 1]!.seq : 0,
  more,
})

const PLACEHOLDER = '输入消息…'

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  mockLive = null
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.mocked(getConsultation).mockResolvedValue(imagingDetail())
  markRead.mockResolvedValue({ ok: true })
})

const bubbles = (text: string) => screen.queryAllByText(text).length

describe('消息详情: reading by cursor', () => {
  it('appends what comes after the last seq, without duplicates, and marks read with the last seq', async () => {
    list.mockResolvedValueOnce(page([message(1), message(2)]))
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    expect(await screen.findByText('消息 2')).toBeTruthy()
    expect(list).toHaveBeenCalledWith(expect.objectContaining({ consultationId: 'c1', after: 0 }))
    await waitFor(() => expect(markRead).toHaveBeenCalledWith('c1', 2))

    // The next read overlaps (a repeated signal, a reconnect): m2 again, then m3.
    list.mockResolvedValue(page([message(2), message(3)]))
    mockLive!()
    expect(await screen.findByText('消息 3')).toBeTruthy()
    expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ after: 2 }))
    expect(bubbles('消息 1')).toBe(1)
    expect(bubbles('消息 2')).toBe(1)
    expect(bubbles('消息 3')).toBe(1)
    await waitFor(() => expect(markRead).toHaveBeenLastCalledWith('c1', 3))

    // Nothing new: no second mark for the same seq.
    list.mockResolvedValue(page([]))
    markRead.mockClear()
    mockLive!()
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(expect.objectContaining({ after: 3 })),
    )
    expect(markRead).not.toHaveBeenCalled()
  })

  it('shows the state, the notice, 已读/未读 on mine, and 查看详情 opens 咨询详情', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    list.mockResolvedValue(
      page([
        message(1, { from: 'patient', mine: true, text: '我的问题', read: true }),
        message(2, { from: 'patient', mine: true, text: '补一句', read: false }),
        message(3, { kind: 'system', from: 'system', text: '专家已接诊' }),
      ]),
    )
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    expect(await screen.findByText('专家已接诊')).toBeTruthy()
    expect(screen.getByText('进行中')).toBeTruthy()
    expect(
      screen.getByText('本服务为健康咨询及影像解读，不能替代线下面诊，不开具处方'),
    ).toBeTruthy()
    expect(screen.getByText('已读')).toBeTruthy()
    expect(screen.getByText('未读')).toBeTruthy()
    // My unread message is read again, so its 已读 can show.
    list.mockClear()
    mockLive!()
    await waitFor(() => expect(list).toHaveBeenCalledWith(expect.objectContaining({ after: 1 })))
    fireEvent.click(screen.getByText('查看详情 ›'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/question/question?id=c1' }),
      ),
    )
  })
})

describe('消息详情: sending', () => {
  it('shows a send at once; a retry reuses its clientId, and it shows once even when read back first', async () => {
    list.mockResolvedValue(page([message(1)]))
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    await screen.findByText('消息 1')

    send.mockRejectedValueOnce(new Error('网络不给力'))
    typeInto(PLACEHOLDER, '请问需要复查吗')
    fireEvent.click(screen.getByText('发送'))
    expect(await screen.findByText('请问需要复查吗')).toBeTruthy()
    expect(await screen.findByText('发送失败，点击重试')).toBeTruthy()
    const firstClientId = send.mock.calls[0]![0].clientId

    // The server had kept it after all: the cursor reads it back before the retry.
    const kept = message(2, { from: 'patient', mine: true, text: '请问需要复查吗', read: false })
    list.mockResolvedValue(page([kept]))
    mockLive!()
    await waitFor(() => expect(screen.queryByText('发送失败，点击重试')).toBeNull())
    expect(bubbles('请问需要复查吗')).toBe(1)

    // A retry of a send still failed on screen reuses the clientId; the answer is the same row.
    send.mockRejectedValueOnce(new Error('网络不给力'))
    typeInto(PLACEHOLDER, '第二条')
    fireEvent.click(screen.getByText('发送'))
    fireEvent.click(await screen.findByText('发送失败，点击重试'))
    const third = message(3, { from: 'patient', mine: true, text: '第二条', read: false })
    send.mockResolvedValueOnce(third)
    await waitFor(() => expect(send).toHaveBeenCalledTimes(3))
    expect(send.mock.calls[2]![0].clientId).toBe(send.mock.calls[1]![0].clientId)
    expect(send.mock.calls[1]![0].clientId).not.toBe(firstClientId)
    await waitFor(() => expect(screen.queryByText('发送中')).toBeNull())
    list.mockClear()
    list.mockResolvedValue(page([third]))
    mockLive!()
    await waitFor(() => expect(list).toHaveBeenCalled())
    expect(bubbles('第二条')).toBe(1)
  })

  it('tells the patient the follow-ups left after the answer', async () => {
    jest
      .mocked(getConsultation)
      .mockResolvedValue(
        imagingDetail({ state: 'answered', stateLabel: '已回复', followupsUsed: 1 }),
      )
    list.mockResolvedValue(
      page([
        message(1, {
          kind: 'answer',
          text: '',
          answer: {
            findings: '右肺上叶 6mm 磨玻璃结节',
            opinion: '考虑良性可能大',
            advice: '6 个月后复查',
          },
          signedAt: '2026-11-21T02:00:00.000Z',
        }),
      ]),
    )
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    expect(await screen.findByText('追问剩余 2 次')).toBeTruthy()
    expect(screen.getByText('专家回复')).toBeTruthy()
    expect(screen.getByText('右肺上叶 6mm 磨玻璃结节')).toBeTruthy()
    expect(screen.getByText('已签署 2026-11-21 10:00')).toBeTruthy()
  })
})

describe('消息详情: the expert signs the answer', () => {
  it('影像会诊: 撰写会诊报告 opens the report page instead of the plain form', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    jest.mocked(getConsultation).mockResolvedValue(
      imagingDetail({
        role: 'expert',
        actions: { ...imagingDetail().actions, send: true, answer: true },
      }),
    )
    list.mockResolvedValue(page([message(1, { from: 'patient', text: '结节要紧吗' })]))
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    expect(
      await screen.findByText(
        '影像会诊用结构化报告模板撰写：逐项填写、在影像上测量并附图，预览后签署发送给患者。草稿自动保存。',
      ),
    ).toBeTruthy()
    // No plain three-box form for an 影像会诊's first answer.
    expect(screen.queryByText('描述所见的影像表现（部位、大小、形态、密度等）')).toBeNull()
    const buttons = screen.getAllByText('撰写会诊报告')
    fireEvent.click(buttons[buttons.length - 1]!)
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/report/report?consultationId=c1' }),
      ),
    )
  })

  it('影像会诊: the answer signed from a template opens its report for the patient', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    jest.mocked(getConsultation).mockResolvedValue(imagingDetail())
    list.mockResolvedValue(
      page([
        message(2, {
          kind: 'answer',
          from: 'expert',
          text: '良性可能大',
          answer: {
            findings: '肺结节：右肺上叶磨玻璃结节',
            opinion: '良性可能大',
            advice: '半年复查',
            reportId: 'op-1',
          },
          signedAt: '2026-11-21T02:00:00.000Z',
        }),
      ]),
    )
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    fireEvent.click(await screen.findByText('查看会诊报告（附图与 PDF）'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/report/report?id=op-1' }),
      ),
    )
  })

  it('图文咨询: asks 回复意见 and 建议, the password, then sends answerConsultation; after it, 补充说明', async () => {
    jest.mocked(getConsultation).mockResolvedValue(
      imagingDetail({
        service: 'text',
        role: 'expert',
        actions: { ...imagingDetail().actions, send: true, answer: true },
      }),
    )
    list.mockResolvedValue(page([message(1, { from: 'patient', text: '结节要紧吗' })]))
    const signed = message(2, {
      kind: 'answer',
      from: 'expert',
      mine: true,
      text: '',
      answer: { findings: '', opinion: '良性可能大', advice: '半年复查' },
      signedAt: '2026-11-21T02:00:00.000Z',
    })
    jest.mocked(answerConsultation).mockResolvedValue(signed)
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    expect(await screen.findByText('填写回复')).toBeTruthy()
    expect(
      screen.getByText('本服务为健康咨询及影像解读，不能替代线下面诊，不开具处方；不得开具处方。'),
    ).toBeTruthy()

    fireEvent.click(screen.getByText('签署并发送'))
    expect(answerConsultation).not.toHaveBeenCalled()

    typeInto('您对影像和病情的解读意见', '良性可能大')
    typeInto('下一步建议（复查时间、需补充的检查、线下就诊科室等）', '半年复查')
    fireEvent.click(screen.getByText('签署并发送'))
    typeInto('请输入登录密码', 'secret123')
    const buttons = await screen.findAllByText('签署并发送')
    fireEvent.click(buttons[buttons.length - 1]!)
    await waitFor(() =>
      expect(answerConsultation).toHaveBeenCalledWith(
        expect.objectContaining({
          consultationId: 'c1',
          opinion: '良性可能大',
          advice: '半年复查',
          password: 'secret123',
        }),
      ),
    )
    expect(await screen.findByText('专家回复')).toBeTruthy()
    expect((await screen.findAllByText('签署并发送补充说明')).length).toBeGreaterThan(0)
  })
})

describe('merge rules', () => {
  it('keeps one row per id and seq, ordered', () => {
    const merged = mergeMessages(
      [message(2), message(1)],
      [message(2, { read: false }), message(3)],
    )
    expect(merged.map((one) => one.seq)).toEqual([1, 2, 3])
    expect(merged[1]!.read).toBe(false)
  })

  it('hides one send per confirmed copy of mine after it', () => {
    const pending = [
      {
        clientId: 'a',
        content: { kind: 'text' as const, text: '好的' },
        status: 'failed' as const,
        afterSeq: 1,
        error: null,
      },
      {
        clientId: 'b',
        content: { kind: 'text' as const, text: '好的' },
        status: 'sending' as const,
        afterSeq: 1,
        error: null,
      },
    ]
    const one = [message(2, { mine: true, text: '好的' })]
    expect(visiblePending(pending, one).map((send) => send.clientId)).toEqual(['b'])
    expect(visiblePending(pending, [...one, message(3, { mine: true, text: '好的' })])).toEqual([])
  })

  it('reads again from my first unread message', () => {
    expect(cursorOf([message(1), message(2, { mine: true, read: false }), message(3)])).toBe(1)
    expect(cursorOf([message(1), message(2)])).toBe(2)
  })
})
