import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { typeInto, valueOf } from '@/components/form/__tests__/inputs'
import { CONSULT_MESSAGES, listConsultPeople } from '@/services/consultations'
import { listExams, listPersonalReports } from '@/services/records'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../../jest/taro-render'
import { exam, people, report, resetDrafts, seedDraft, signIn } from '../../__tests__/fixtures'
import { CONSULT_DRAFT_STORAGE_KEY, useConsultDraftStore } from '../draft-store'
import { PRIVATE_REPORT_CONFIRM } from '../hooks/use-examine'

jest.mock('@/services/consultations', () => ({
  ...jest.requireActual<typeof import('@/services/consultations')>('@/services/consultations'),
  listConsultPeople: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  listExams: jest.fn(),
  listPersonalReports: jest.fn(),
}))

const COMPLAINT = '主要不适和持续时间，如：体检发现肺结节 2 周'
const QUESTIONS = '写下您最想请专家解答的问题'

let navigateTo: jest.SpyInstance
let toast: jest.SpyInstance
beforeEach(() => {
  resetStores()
  resetDrafts()
  jest.clearAllMocks()
  signIn()
  jest.mocked(listConsultPeople).mockResolvedValue({ items: people() })
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
})

function toasted(): string[] {
  return toast.mock.calls.map(([options]) => (options as { title: string }).title)
}

describe('会诊申请 (applyPatInfo): the draft', () => {
  it('keeps what was typed across leaving the page and a fresh start of the app', async () => {
    await renderPage('pages/consult/applyPatInfo', { expertId: 'e1', service: 'text' })
    await screen.findByText('本人')
    typeInto(COMPLAINT, '咳嗽三周，体检发现肺结节')
    typeInto(QUESTIONS, '需要手术吗？')
    fireEvent.click(screen.getByText('已就诊'))

    // Away to another page, the store emptied as after the app is closed, then read back from storage.
    await renderPage('pages/about/about')
    const stored: unknown = Taro.getStorageSync(CONSULT_DRAFT_STORAGE_KEY)
    expect(stored).toContain('咳嗽三周')
    // Memory emptied (which the store also writes), then only what storage kept comes back.
    useConsultDraftStore.setState({ drafts: {} })
    Taro.setStorageSync(CONSULT_DRAFT_STORAGE_KEY, stored)
    await useConsultDraftStore.persist.rehydrate()

    await renderPage('pages/consult/applyPatInfo', { expertId: 'e1', service: 'text' })
    await screen.findByText('本人')
    await waitFor(() => expect(valueOf(COMPLAINT)).toBe('咳嗽三周，体检发现肺结节'))
    expect(valueOf(QUESTIONS)).toBe('需要手术吗？')
    expect(screen.getByText('已就诊').closest('[role="radio"]')!.getAttribute('aria-checked')).toBe(
      'true',
    )
    // Another service with the same expert is another draft.
    await renderPage('pages/consult/applyPatInfo', { expertId: 'e1', service: 'imaging' })
    await screen.findByText('本人')
    expect(valueOf(COMPLAINT)).toBe('')
  })

  it('a person without a bound ID card cannot go on, and is shown the way to fix it', async () => {
    await renderPage('pages/consult/applyPatInfo', { expertId: 'e1', service: 'text' })
    fireEvent.click(await screen.findByText('母亲'))
    expect(await screen.findByText('去亲情卡')).toBeTruthy()
    typeInto(COMPLAINT, '头痛一个月')
    typeInto(QUESTIONS, '需要做什么检查？')
    fireEvent.click(screen.getByText('未就诊'))
    fireEvent.click(screen.getByText('下一步：检查信息'))
    await waitFor(() => expect(toasted()).toContain(CONSULT_MESSAGES.idCardRequired))
    expect(navigateTo).not.toHaveBeenCalled()
  })
})

describe('检查信息 (examine)', () => {
  beforeEach(() => {
    jest.mocked(listExams).mockResolvedValue({ items: [exam(1)], total: 1 } as never)
    jest.mocked(listPersonalReports).mockResolvedValue({
      items: [report(1), report(2, { private: true, title: '头颅 MR 报告' })],
      total: 2,
      unread: 0,
    } as never)
  })

  it('影像会诊 needs at least one exam: a report alone is refused, an exam lets it on', async () => {
    seedDraft('imaging', { records: [] })
    await renderPage('pages/consult/examine', { expertId: 'e1', service: 'imaging' })
    fireEvent.click(await screen.findByText('胸部 CT 平扫报告'))
    fireEvent.click(screen.getByText('下一步：确认申请'))
    await waitFor(() => expect(toasted()).toContain(CONSULT_MESSAGES.imagingNeedsExam))
    expect(await screen.findByText(CONSULT_MESSAGES.imagingNeedsExam)).toBeTruthy()
    expect(navigateTo).not.toHaveBeenCalled()

    fireEvent.click(screen.getByText('胸部 CT 平扫'))
    fireEvent.click(screen.getByText('下一步：确认申请'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/consult/consult?expertId=e1&service=imaging',
      }),
    )
  })

  it('图文咨询 goes on with a report alone', async () => {
    seedDraft('text', { records: [] })
    await renderPage('pages/consult/examine', { expertId: 'e1', service: 'text' })
    fireEvent.click(await screen.findByText('胸部 CT 平扫报告'))
    fireEvent.click(screen.getByText('下一步：确认申请'))
    await waitFor(() => expect(navigateTo).toHaveBeenCalled())
  })

  it('a private report shows its lock and is added only when confirmed on purpose', async () => {
    seedDraft('text', { records: [] })
    const modal = jest.spyOn(Taro, 'showModal').mockResolvedValue({
      confirm: false,
      cancel: true,
      errMsg: 'showModal:ok',
    })
    await renderPage('pages/consult/examine', { expertId: 'e1', service: 'text' })
    const row = (await screen.findByText('头颅 MR 报告')).closest('[role="checkbox"]')!
    expect(row.textContent).toContain('隐私')
    fireEvent.click(row)
    await waitFor(() =>
      expect(modal).toHaveBeenCalledWith(expect.objectContaining(PRIVATE_REPORT_CONFIRM)),
    )
    expect(row.getAttribute('aria-checked')).toBe('false')

    modal.mockResolvedValue({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
    fireEvent.click(row)
    await waitFor(() => expect(row.getAttribute('aria-checked')).toBe('true'))
  })
})
