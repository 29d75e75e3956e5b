import { act, fireEvent, screen } from '@testing-library/react'
import { Text } from '@tarojs/components'
import { inputsDrawn, typeInto } from '@/components/form/__tests__/inputs'
import {
  confirmClaim,
  getClaimedReport,
  getScanReportCount,
  getScanReportInfo,
  listScanRooms,
  sendClaimCode,
  type ReportDetail,
  type ScanResult,
} from '@/services/claims'
import { FilmReportView } from '../components/film-report-view'
import { useFilmReport } from '../hooks/use-film-report'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/claims', () => ({
  getScanReportInfo: jest.fn(),
  getScanReportCount: jest.fn(),
  listScanRooms: jest.fn(),
  getClaimedReport: jest.fn(),
  sendClaimCode: jest.fn(),
  confirmClaim: jest.fn(),
}))

const mocked = {
  info: jest.mocked(getScanReportInfo),
  count: jest.mocked(getScanReportCount),
  rooms: jest.mocked(listScanRooms),
  report: jest.mocked(getClaimedReport),
  send: jest.mocked(sendClaimCode),
  confirm: jest.mocked(confirmClaim),
}

const CODE = 'ZXhhbS0xMjM.AAAAAAAAAAAAAAAAAAAAAA'

const LOCKED: ScanResult = {
  code: CODE,
  exam: {
    hospital: { id: 'h1', name: '示例市第一人民医院' },
    studyDate: '2030-05-20',
    modalities: ['CT'],
    title: '胸部 CT 平扫',
    patientNameMasked: '王**',
    hasReport: true,
    reportStatusLabel: '正式报告',
  },
  mine: false,
  examId: null,
  reportId: null,
  ticket: 'T1',
  mobileMasked: '137****3333',
}

const MINE: ScanResult = {
  ...LOCKED,
  mine: true,
  examId: 'e1',
  reportId: 'r1',
  ticket: null,
  mobileMasked: null,
}

const REPORT = { id: 'r1', locked: false, conclusion: '未见明显异常。' } as ReportDetail

function Page({ code }: { code?: string }) {
  return (
    <FilmReportView
      view={useFilmReport(code)}
      renderReport={(report) => <Text>{`诊断意见：${report.conclusion}`}</Text>}
    />
  )
}

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

beforeEach(() => {
  jest.clearAllMocks()
  mocked.count.mockResolvedValue({ total: 0, final: 0 })
  mocked.rooms.mockResolvedValue([])
})

describe('detail2 (scanned film-bag code)', () => {
  it('shows who issued it, no report before the proof, and the report after it', async () => {
    mocked.info.mockResolvedValueOnce(LOCKED).mockResolvedValueOnce(MINE)
    mocked.report.mockResolvedValue(REPORT)
    mocked.send.mockResolvedValue({
      mobileMasked: '137****3333',
      cooldownSeconds: 60,
      expiresInSeconds: 300,
    })
    mocked.confirm.mockResolvedValue({
      examId: 'e1',
      hospital: { id: 'h1', name: '示例市第一人民医院' },
      reportId: 'r1',
      via: 'scan',
    })
    await renderComponent(<Page code={CODE} />)
    await flush()
    expect(mocked.info).toHaveBeenCalledWith(CODE)
    expect(screen.getByText('示例市第一人民医院')).toBeTruthy()
    expect(screen.getByText('王**')).toBeTruthy()
    expect(screen.getByText('137****3333', { exact: false })).toBeTruthy()
    expect(screen.queryByText(/诊断意见/)).toBeNull()
    expect(mocked.report).not.toHaveBeenCalled()

    await inputsDrawn()
    fireEvent.click(screen.getByText('获取验证码'))
    await flush()
    expect(mocked.send).toHaveBeenCalledWith('T1')
    typeInto('请输入验证码', '246810')
    fireEvent.click(screen.getByText('验证并查看报告'))
    await flush()
    await flush()
    expect(mocked.confirm).toHaveBeenCalledWith('T1', '246810')
    expect(mocked.report).toHaveBeenCalledWith('r1')
    expect(screen.getByText('诊断意见：未见明显异常。')).toBeTruthy()
    expect(screen.getByText('已添加到我的影像和报告')).toBeTruthy()
    expect(screen.getByText('示例市第一人民医院')).toBeTruthy()
  })

  it("opens an exam already the caller's straight to its report", async () => {
    mocked.info.mockResolvedValue(MINE)
    mocked.report.mockResolvedValue(REPORT)
    await renderComponent(<Page code={CODE} />)
    await flush()
    await flush()
    expect(screen.getByText('诊断意见：未见明显异常。')).toBeTruthy()
    expect(screen.queryByText('获取验证码')).toBeNull()
  })

  it('keeps a private report closed here and sends the person to its detail', async () => {
    mocked.info.mockResolvedValue(MINE)
    mocked.report.mockResolvedValue({ ...REPORT, locked: true, conclusion: null })
    await renderComponent(<Page code={CODE} />)
    await flush()
    await flush()
    expect(screen.getByText('该报告已设为隐私，请在报告详情中验证身份后查看。')).toBeTruthy()
    expect(screen.queryByText(/诊断意见/)).toBeNull()
  })

  it('without a recorded phone it points to binding the ID card', async () => {
    mocked.info.mockResolvedValue({ ...LOCKED, ticket: null, mobileMasked: null })
    await renderComponent(<Page code={CODE} />)
    await flush()
    expect(screen.getByText('去绑定身份证')).toBeTruthy()
    expect(screen.queryByText('获取验证码')).toBeNull()
  })

  it("shows the report count and the hospital's rooms from the scan service", async () => {
    mocked.info.mockResolvedValue(LOCKED)
    mocked.count.mockResolvedValue({ total: 2, final: 1 })
    mocked.rooms.mockResolvedValue([
      { id: 'd1', name: '放射科' },
      { id: 'd2', name: '超声科' },
    ])
    await renderComponent(<Page code={CODE} />)
    await flush()
    expect(mocked.count).toHaveBeenCalledWith(CODE, expect.objectContaining({ loading: false }))
    expect(mocked.rooms).toHaveBeenCalledWith(CODE, expect.objectContaining({ loading: false }))
    expect(screen.getByText('2 份（1 份已出终稿）')).toBeTruthy()
    expect(screen.getByText('医院科室')).toBeTruthy()
    expect(screen.getByText('放射科')).toBeTruthy()
    expect(screen.getByText('超声科')).toBeTruthy()
  })

  it('leaves the count and rooms out when they fail, and the page works', async () => {
    mocked.info.mockResolvedValue(MINE)
    mocked.report.mockResolvedValue(REPORT)
    mocked.count.mockRejectedValue(new Error('offline'))
    mocked.rooms.mockRejectedValue(new Error('offline'))
    await renderComponent(<Page code={CODE} />)
    await flush()
    await flush()
    expect(screen.getByText('诊断意见：未见明显异常。')).toBeTruthy()
    expect(screen.queryByText(/份已出终稿/)).toBeNull()
    expect(screen.queryByText('医院科室')).toBeNull()
  })

  it('says 暂无报告 when the hospital has sent none yet', async () => {
    mocked.info.mockResolvedValue({ ...LOCKED, exam: { ...LOCKED.exam, hasReport: false } })
    await renderComponent(<Page code={CODE} />)
    await flush()
    expect(screen.getByText('暂无报告')).toBeTruthy()
    expect(screen.queryByText('医院科室')).toBeNull()
  })

  it('refuses a link without a usable code before asking the server', async () => {
    await renderComponent(<Page code="<script>" />)
    await flush()
    expect(screen.getByText('二维码无效，请扫描医院胶片袋或报告单上的二维码')).toBeTruthy()
    expect(mocked.info).not.toHaveBeenCalled()
    expect(mocked.count).not.toHaveBeenCalled()
  })
})
