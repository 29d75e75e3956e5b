import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { EXAM_REQUEST_NOTICE } from '@contract/main/exam-requests'
import { typeInto } from '@/components/form/__tests__/inputs'
import { canvasSurface } from '@/platform/canvas'
import { profile } from '@/services/__tests__/account-fixtures'
import { HttpError } from '@/services/http'
import {
  getConsultation,
  listConsultMessages,
  markConsultRead,
  type ConsultMessage,
} from '@/services/consultations'
import { createExamRequest, type ExamRequest, getExamRequest } from '@/services/exam-requests'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../../jest/taro-render'
import { imagingDetail, message } from '../../__tests__/fixtures'

// The bars are drawn on a canvas jsdom has not: the code128 tests check the bars themselves.
jest.mock('@/platform/canvas', () => ({ canvasSurface: jest.fn().mockResolvedValue(null) }))

jest.mock('@/services/exam-requests', () => ({
  createExamRequest: jest.fn(),
  getExamRequest: jest.fn(),
}))

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  getConsultation: jest.fn(),
  listConsultMessages: jest.fn(),
  markConsultRead: jest.fn(),
}))

jest.mock('../../conversation/hooks/use-live-refresh', () => ({
  FALLBACK_POLL_MS: 5000,
  useLiveRefresh: () => undefined,
}))

const REQUEST: ExamRequest = {
  id: 'er1',
  number: 'JC20261129042517',
  consultationId: 'c1',
  examType: 'ct-contrast',
  examTypeLabel: '增强 CT',
  bodyPart: '胸部',
  contrast: 'hospital',
  contrastLabel: '由医院决定',
  urgency: 'soon',
  urgencyLabel: '尽快（1 周内）',
  reason: '右肺上叶磨玻璃结节，需增强扫描了解血供。',
  patient: { nameMasked: '王**', sexLabel: '男', age: 46 },
  expert: {
    name: '李放射',
    titleLabel: '主任医师',
    hospitalName: '演示医院',
    department: '放射科',
  },
  createdAt: '2026-11-29T03:00:00.000Z',
  notice: EXAM_REQUEST_NOTICE,
  role: 'patient',
}

function refusal(statusCode: number, message: string): HttpError {
  return new HttpError(
    { statusCode, data: { code: statusCode, message, data: null, error: message }, header: {} },
    'business',
  )
}

const REASON_PLACEHOLDER = '写给接诊医生：为什么建议做这项检查、重点看什么'

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.mocked(markConsultRead).mockResolvedValue({ ok: true })
})

describe('开检查建议 (the expert)', () => {
  it('says what is missing in the contract words, then sends the taps and the reason once', async () => {
    const navigateBack = jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' })
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{}, {}] as never)
    jest.mocked(createExamRequest).mockResolvedValue({ ...REQUEST, role: 'expert' })
    await renderPage('pages/report/reportNew', { consultationId: 'c1' })
    expect(await screen.findByText(EXAM_REQUEST_NOTICE)).toBeTruthy()

    fireEvent.click(screen.getByText('发送'))
    expect((await screen.findByRole('alert')).textContent).toBe('请选择检查类型')
    fireEvent.click(screen.getByText('增强 CT'))
    fireEvent.click(screen.getByText('胸部'))
    fireEvent.click(screen.getByText('由医院决定'))
    fireEvent.click(screen.getByText('尽快（1 周内）'))
    fireEvent.click(screen.getByText('发送'))
    expect((await screen.findByRole('alert')).textContent).toBe('请填写检查理由，便于接诊医生了解')
    expect(createExamRequest).not.toHaveBeenCalled()

    typeInto(REASON_PLACEHOLDER, REQUEST.reason)
    fireEvent.click(screen.getByText('发送'))
    await waitFor(() => expect(createExamRequest).toHaveBeenCalledTimes(1))
    expect(createExamRequest).toHaveBeenCalledWith({
      consultationId: 'c1',
      clientId: expect.stringMatching(/^c/),
      examType: 'ct-contrast',
      bodyPart: '胸部',
      contrast: 'hospital',
      urgency: 'soon',
      reason: REQUEST.reason,
    })
    await waitFor(() => expect(navigateBack).toHaveBeenCalled())
  })

  it('其他 asks for the exam name; a server refusal is shown and the same clientId is retried', async () => {
    jest
      .mocked(createExamRequest)
      .mockRejectedValueOnce(refusal(409, '只有进行中或已回复的咨询可以开检查建议'))
      .mockResolvedValueOnce({ ...REQUEST, role: 'expert' })
    jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' })
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{}, {}] as never)
    await renderPage('pages/report/reportNew', { consultationId: 'c1' })
    fireEvent.click(await screen.findByText('其他'))
    fireEvent.click(screen.getByText('头颅'))
    fireEvent.click(screen.getByText('否'))
    typeInto(REASON_PLACEHOLDER, '头痛两周')
    fireEvent.click(screen.getByText('发送'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      '选择「其他」时请填写检查名称（最多 30 字）',
    )
    typeInto('请填写检查名称，如 骨密度', '经颅多普勒')
    fireEvent.click(screen.getByText('发送'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      '只有进行中或已回复的咨询可以开检查建议',
    )
    fireEvent.click(screen.getByText('发送'))
    await waitFor(() => expect(createExamRequest).toHaveBeenCalledTimes(2))
    const [first, second] = jest.mocked(createExamRequest).mock.calls
    expect(second![0].clientId).toBe(first![0].clientId)
    expect(second![0]).toEqual(
      expect.objectContaining({ examType: 'other', examName: '经颅多普勒' }),
    )
  })
})

describe('检查申请单 (the patient)', () => {
  it('shows the form a registration desk reads, with the bar code and the notice', async () => {
    jest.mocked(getExamRequest).mockResolvedValue(REQUEST)
    await renderPage('pages/report/reportNew', { id: 'er1' })
    expect(await screen.findByText('专家检查建议 · 请出示给医院挂号处')).toBeTruthy()
    expect(getExamRequest).toHaveBeenCalledWith('er1')
    // The number is under the bars and in the rows.
    expect(screen.getAllByText('JC20261129042517').length).toBeGreaterThanOrEqual(1)
    expect(jest.mocked(canvasSurface)).toHaveBeenCalledWith(
      'exam-request-bar-code',
      expect.any(Number),
      88,
    )
    for (const text of ['王**', '男 / 46 岁', '增强 CT', '胸部', '由医院决定', '尽快（1 周内）']) {
      expect(screen.getByText(text)).toBeTruthy()
    }
    expect(screen.getByText(REQUEST.reason)).toBeTruthy()
    expect(screen.getByText('李放射 主任医师')).toBeTruthy()
    expect(screen.getByText('演示医院 放射科')).toBeTruthy()
    expect(screen.getByText(EXAM_REQUEST_NOTICE)).toBeTruthy()
  })

  it('someone else sees only the refusal', async () => {
    jest.mocked(getExamRequest).mockRejectedValue(refusal(404, '检查申请单不存在或您无权查看'))
    await renderPage('pages/report/reportNew', { id: 'er1' })
    expect(await screen.findByText('检查申请单不存在或您无权查看')).toBeTruthy()
    expect(screen.queryByText('JC20261129042517')).toBeNull()
  })
})

describe('消息详情: the 检查建议 in the conversation', () => {
  const card: ConsultMessage = message(2, {
    kind: 'exam-request',
    text: '检查建议：增强 CT · 胸部',
    examRequest: {
      id: 'er1',
      examTypeLabel: '增强 CT',
      bodyPart: '胸部',
      urgency: 'soon',
      urgencyLabel: '尽快（1 周内）',
    },
  })

  it('the patient sees the card and a tap opens the 检查申请单', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    jest.mocked(getConsultation).mockResolvedValue(imagingDetail())
    jest
      .mocked(listConsultMessages)
      .mockResolvedValue({ items: [message(1), card], last: 2, more: false })
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    expect(await screen.findByText('增强 CT · 胸部')).toBeTruthy()
    expect(screen.getByText('尽快（1 周内）')).toBeTruthy()
    // Only the expert offers a suggestion.
    expect(screen.queryByText('开检查建议')).toBeNull()
    fireEvent.click(screen.getByText('查看检查申请单 ›'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/report/reportNew?id=er1' }),
      ),
    )
  })

  it('the expert answering it gets 开检查建议, which opens the compose form', async () => {
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    jest.mocked(getConsultation).mockResolvedValue(
      imagingDetail({
        role: 'expert',
        actions: { ...imagingDetail().actions, send: true, answer: true },
      }),
    )
    jest
      .mocked(listConsultMessages)
      .mockResolvedValue({ items: [message(1)], last: 1, more: false })
    await renderPage('pages/myMessage/detail', { consultationId: 'c1' })
    fireEvent.click(await screen.findByText('开检查建议'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({ url: '/pages/report/reportNew?consultationId=c1' }),
      ),
    )
  })
})
