import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import jsQR from 'jsqr'
import type { Context2D } from '@/platform/canvas'
import { canvasSurface } from '@/platform/canvas'
import { createGrant, GRANT_MESSAGES } from '@/services/grants'
import { HttpError } from '@/services/http'
import { inputsDrawn, typeInto } from '@/components/form/__tests__/inputs'
import { listExams, type ExamDetail, type ExamSummary, type ReportDetail } from '@/services/records'
import { GrantSheet } from '../components/grant-sheet'
import {
  choicesOf,
  copyText,
  initialForm,
  otherChoicesOf,
  subjectOfExam,
  subjectOfReport,
  toGrantInput,
  type GrantSubject,
} from '../grant-form'
import { renderComponent } from '../../../../../jest/taro-render'
import { created } from './fixtures'

jest.mock('@/services/grants', () => ({
  ...jest.requireActual<typeof import('@/services/grants')>('@/services/grants'),
  createGrant: jest.fn(),
}))
jest.mock('@/platform/canvas', () => ({ canvasSurface: jest.fn() }))
jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  listExams: jest.fn(),
}))

const create = jest.mocked(createGrant)
const exams = jest.mocked(listExams)

/** A line of the person's exam list (the records feature's fixtures are its own). */
function examLine(n: number, overrides: Partial<ExamSummary> = {}): ExamSummary {
  return {
    id: `x${n}`,
    source: 'hospital',
    hospital: { id: 'h1', name: '示例市第一人民医院' },
    hospitalText: null,
    accessionNumber: null,
    studyUid: `1.2.3.${n}`,
    studyDate: '2026-11-20',
    studyTime: null,
    modalities: ['CT'],
    bodyPart: null,
    title: `胸部 CT 平扫 ${n}`,
    seriesCount: 2,
    instanceCount: 120,
    status: 'ready',
    statusLabel: '可查看',
    statusMessage: null,
    archived: false,
    report: {
      id: `r${n}`,
      status: 'final',
      statusLabel: '正式报告',
      issuedAt: '2026-11-20T03:00:00.000Z',
      read: true,
      private: false,
    },
    createdAt: '2026-11-20T02:00:00.000Z',
    ...overrides,
  }
}
const surface = jest.mocked(canvasSurface)

const SUBJECT: GrantSubject = {
  examId: 'x1',
  title: '胸部 CT 平扫',
  hasImages: true,
  seriesCount: 3,
  report: { id: 'r1', statusLabel: '正式报告', private: false },
}
const PRIVATE: GrantSubject = {
  ...SUBJECT,
  report: { id: 'r1', statusLabel: '正式报告', private: true },
}

function refusal(status: number, error: string) {
  return new HttpError(
    { statusCode: status, header: {}, data: { code: status, message: 'x', data: null, error } },
    'business',
  )
}

/** A context painting into an RGBA buffer, so the drawn QR code can be read back. */
function pixelContext(side: number) {
  const data = new Uint8ClampedArray(side * side * 4).fill(255)
  let colour = 0
  const context: Context2D = {
    set fillStyle(value: unknown) {
      colour = value === '#000000' ? 0 : 255
    },
    get fillStyle() {
      return colour === 0 ? '#000000' : '#ffffff'
    },
    fillRect(x, y, width, height) {
      for (let row = y; row < y + height; row += 1)
        for (let column = x; column < x + width; column += 1) {
          const at = (row * side + column) * 4
          data[at] = data[at + 1] = data[at + 2] = colour
          data[at + 3] = 255
        }
    },
    clearRect: () => undefined,
    setTransform: () => undefined,
  }
  return { context, data }
}

async function flush() {
  await act(async () => {
    await Promise.resolve()
    await Promise.resolve()
  })
}

describe('the 授权 form rules', () => {
  it('ticks the images and the report, but a private report only when it is the one shown', () => {
    const open = choicesOf(SUBJECT)
    expect(initialForm(open).picked).toEqual(['x1', 'r1'])
    const secret = choicesOf(PRIVATE)
    expect(secret[1]?.note).toContain('隐私')
    expect(initialForm(secret).picked).toEqual(['x1'])
    expect(initialForm(secret, 'r1').picked).toEqual(['x1', 'r1'])
    // An exam without images offers its report only.
    expect(choicesOf({ ...SUBJECT, hasImages: false }).map((one) => one.kind)).toEqual(['report'])
  })

  it('turns the choices into createGrant input, or says what is missing', () => {
    const choices = choicesOf(SUBJECT)
    const form = initialForm(choices)
    expect(toGrantInput(form, choices)).toEqual({
      ok: true,
      input: {
        audience: 'link',
        examIds: ['x1'],
        reportIds: ['r1'],
        duration: '24h',
        pickupCode: true,
      },
    })
    expect(toGrantInput({ ...form, picked: [] }, choices)).toEqual({
      ok: false,
      message: GRANT_MESSAGES.noRecords,
    })
    expect(toGrantInput({ ...form, maxViews: '0' }, choices)).toEqual({
      ok: false,
      message: GRANT_MESSAGES.maxViews,
    })
    expect(toGrantInput({ ...form, maxViews: '101' }, choices).ok).toBe(false)
    expect(toGrantInput({ ...form, maxViews: ' 3 ', picked: ['x1'] }, choices, 'p9')).toEqual({
      ok: true,
      input: {
        audience: 'link',
        examIds: ['x1'],
        reportIds: [],
        duration: '24h',
        pickupCode: true,
        maxViews: 3,
        personId: 'p9',
      },
    })
    const account = { ...form, audience: 'account' as const, maxViews: '5' }
    expect(toGrantInput(account, choices)).toEqual({
      ok: false,
      message: GRANT_MESSAGES.mobileRequired,
    })
    expect(toGrantInput({ ...account, mobile: '1380000' }, choices)).toEqual({
      ok: false,
      message: '请输入正确的手机号',
    })
    // An account grant carries neither 提取码 nor a view limit (the server refuses them).
    expect(toGrantInput({ ...account, mobile: '13900000002' }, choices)).toEqual({
      ok: true,
      input: {
        audience: 'account',
        examIds: ['x1'],
        reportIds: ['r1'],
        duration: '24h',
        mobile: '13900000002',
      },
    })
  })

  // Only the fields the subject reads (features do not share test fixtures).
  const REPORT = { id: 'r1', statusLabel: '正式报告', private: false }
  const examDetail = (overrides: Partial<ExamDetail> = {}) =>
    ({
      id: 'x1',
      title: '胸部 CT 平扫',
      status: 'ready',
      seriesCount: 2,
      report: REPORT,
      ...overrides,
    }) as ExamDetail
  const reportDetail = (overrides: Partial<ReportDetail> = {}) =>
    ({ ...REPORT, examId: 'x1', title: '胸部 CT 平扫', ...overrides }) as ReportDetail

  it('offers images only once they can be viewed, and the report page its exam’s images', () => {
    const ready = subjectOfExam(examDetail())
    expect(ready).toMatchObject({ examId: 'x1', hasImages: true, report: { id: 'r1' } })
    const reading = subjectOfExam(
      examDetail({ status: 'processing', statusLabel: '解析中', report: null }),
    )
    expect(choicesOf(reading)).toEqual([])
    const fromReport = subjectOfReport(reportDetail({ private: true }))
    expect(choicesOf(fromReport).map((one) => [one.kind, one.note])).toEqual([
      ['exam', '本次检查的全部影像'],
      ['report', '正式报告 · 隐私报告，仅在勾选时授权'],
    ])
  })

  it('offers other exams with where and when, and holds a grant to its 20 records', () => {
    const others = otherChoicesOf(
      [examLine(1), examLine(2, { studyDate: '2026-10-01', report: null })],
      'x1',
    )
    expect(others.map((c) => [c.kind, c.id])).toEqual([['exam', 'x2']])
    expect(others[0]!.note).toMatch(/^2026-10-01 · /)
    const many = Array.from({ length: 21 }, (_, n) => ({
      kind: 'exam' as const,
      id: `x${n}`,
      label: `影像 ${n}`,
      note: '',
      private: false,
    }))
    const form = { ...initialForm(many), picked: many.map((c) => c.id) }
    expect(toGrantInput(form, many)).toEqual({ ok: false, message: GRANT_MESSAGES.tooManyRecords })
  })

  it('copies the link with its 提取码 on its own line', () => {
    expect(copyText({ url: 'https://a/b', pickupCode: '0123' })).toBe('https://a/b\n提取码：0123')
    expect(copyText({ url: 'https://a/b', pickupCode: null })).toBe('https://a/b')
  })
})

describe('GrantSheet', () => {
  let clipboard: jest.SpyInstance
  let painted: ReturnType<typeof pixelContext> | null
  beforeEach(() => {
    jest.clearAllMocks()
    painted = null
    surface.mockImplementation(async (_id, width) => {
      painted = pixelContext(width)
      return { context: painted.context, width, height: width }
    })
    clipboard = jest
      .spyOn(Taro, 'setClipboardData')
      .mockResolvedValue({ errMsg: 'setClipboardData:ok', data: '' })
  })
  afterEach(() => clipboard.mockRestore())

  it('makes a link with 提取码 and shows it once, to copy and as a QR code', async () => {
    create.mockResolvedValue(created({ maxViews: 5 }))
    await renderComponent(
      <GrantSheet visible subject={PRIVATE} onClose={jest.fn()} onOpenList={jest.fn()} />,
    )
    // The private report is offered, marked, and not ticked.
    expect(screen.getByText('隐私')).toBeTruthy()
    fireEvent.click(screen.getByRole('radio', { name: '7 天' }))
    await inputsDrawn()
    typeInto('不限', '5')
    fireEvent.click(screen.getByText('生成链接'))
    await flush()
    expect(create).toHaveBeenCalledWith({
      audience: 'link',
      examIds: ['x1'],
      reportIds: [],
      duration: '7d',
      pickupCode: true,
      maxViews: 5,
    })
    expect(
      screen.getByText('链接和提取码只显示这一次，关闭后无法再查看，请现在复制或分享'),
    ).toBeTruthy()
    expect(screen.getByText('http://127.0.0.1:8080/pages/share/share?token=tok123')).toBeTruthy()
    expect(screen.getByText('4821')).toBeTruthy()
    expect(document.body.textContent).toContain('最多打开 5 次')
    fireEvent.click(screen.getByText('复制链接和提取码'))
    expect(clipboard).toHaveBeenCalledWith({
      data: 'http://127.0.0.1:8080/pages/share/share?token=tok123\n提取码：4821',
    })
    // The QR code drawn is the link itself.
    await waitFor(() => expect(surface).toHaveBeenCalled())
    await flush()
    const drawn = painted!
    const side = surface.mock.calls[0]![1]
    expect(jsQR(drawn.data, side, side)?.data).toBe(
      'http://127.0.0.1:8080/pages/share/share?token=tok123',
    )
  })

  it('grants to an account by phone number and says why the server refused', async () => {
    await renderComponent(
      <GrantSheet visible subject={SUBJECT} onClose={jest.fn()} onOpenList={jest.fn()} />,
    )
    fireEvent.click(screen.getByRole('radio', { name: '医生 / 亲友账号' }))
    // No 提取码 or view limit for an account.
    expect(screen.queryByText('最多打开次数')).toBeNull()
    fireEvent.click(screen.getByText('确认授权'))
    expect(screen.getByRole('alert').textContent).toBe(GRANT_MESSAGES.mobileRequired)
    expect(create).not.toHaveBeenCalled()
    await inputsDrawn()
    typeInto('对方注册时用的手机号', '13700000009')
    create.mockRejectedValueOnce(refusal(400, GRANT_MESSAGES.noAccount))
    fireEvent.click(screen.getByText('确认授权'))
    await flush()
    expect(screen.getByRole('alert').textContent).toBe(GRANT_MESSAGES.noAccount)
    create.mockResolvedValueOnce({
      grant: created({
        audience: 'account',
        pickupCode: false,
        grantee: { userId: 'u2', nameMasked: '李*', mobileMasked: '137****0009', role: 'expert' },
      }).grant,
      link: null,
    })
    fireEvent.click(screen.getByText('确认授权'))
    await flush()
    expect(create).toHaveBeenLastCalledWith({
      audience: 'account',
      examIds: ['x1'],
      reportIds: ['r1'],
      duration: '24h',
      mobile: '13700000009',
    })
    expect(screen.getByText('授权成功')).toBeTruthy()
    expect(document.body.textContent).toContain('医生/专家 李* 137****0009')
    expect(screen.queryByText('复制链接')).toBeNull()
  })

  it('shares several records at once: the person’s other exams, none ticked until chosen', async () => {
    // The shown exam (x1) is not offered twice; x2 has a private report.
    exams.mockResolvedValue({
      items: [
        examLine(1),
        examLine(2, {
          title: '头颅 MR',
          studyDate: '2026-10-01',
          report: { ...examLine(2).report!, id: 'r2', private: true },
        }),
        examLine(3, { title: '腹部超声', report: null }),
      ],
      total: 3,
      page: 1,
      pageSize: 50,
    })
    create.mockResolvedValue(created())
    await renderComponent(
      <GrantSheet
        visible
        subject={SUBJECT}
        personId="p-child"
        onClose={jest.fn()}
        onOpenList={jest.fn()}
      />,
    )
    fireEvent.click(screen.getByText('＋ 同时授权其他检查'))
    await flush()
    expect(exams).toHaveBeenCalledWith({ pageSize: 50, personId: 'p-child' })
    expect(screen.getByText('其他检查（可多选）')).toBeTruthy()
    expect(screen.getAllByText(/^影像 · /)).toHaveLength(3)
    expect(document.body.textContent).toContain('2026-10-01 · ')
    fireEvent.click(screen.getByText('影像 · 头颅 MR'))
    fireEvent.click(screen.getByText('报告 · 头颅 MR'))
    fireEvent.click(screen.getByText('影像 · 腹部超声'))
    fireEvent.click(screen.getByText('生成链接'))
    await flush()
    expect(create).toHaveBeenCalledWith({
      audience: 'link',
      examIds: ['x1', 'x2', 'x3'],
      reportIds: ['r1', 'r2'],
      duration: '24h',
      pickupCode: true,
      personId: 'p-child',
    })
  })

  it('a member’s grant, once made, opens 授权记录 among the member’s grants', async () => {
    create.mockResolvedValue(created())
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    await renderComponent(
      <GrantSheet visible subject={SUBJECT} personId="p-child" onClose={jest.fn()} />,
    )
    fireEvent.click(screen.getByText('生成链接'))
    await flush()
    fireEvent.click(screen.getByText('查看授权记录'))
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: '/pages/personalReport/shouquan-list?examId=x1&personId=p-child',
    })
    navigateTo.mockRestore()
  })

  it('asks for at least one record', async () => {
    await renderComponent(
      <GrantSheet visible subject={PRIVATE} onClose={jest.fn()} onOpenList={jest.fn()} />,
    )
    fireEvent.click(screen.getByText('影像 · 胸部 CT 平扫'))
    fireEvent.click(screen.getByText('生成链接'))
    expect(screen.getByRole('alert').textContent).toBe(GRANT_MESSAGES.noRecords)
    expect(create).not.toHaveBeenCalled()
  })
})
