import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { ExamSummary } from '@contract/main/records'
import { refusal } from '@/services/__tests__/account-fixtures'
import { listHospitalReports, type HospitalReports } from '@/services/claims'
import { EMPTY_TEXT, HospitalReportsView } from '../components/hospital-reports-view'
import { groupByState, useHospitalReports } from '../hooks/use-hospital-reports'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/claims', () => ({ listHospitalReports: jest.fn() }))

const mocked = jest.mocked(listHospitalReports)

function exam(id: string, title: string, report: ExamSummary['report']): ExamSummary {
  return {
    id,
    source: 'hospital',
    hospital: { id: 'h1', name: '示例市第一人民医院' },
    hospitalText: null,
    accessionNumber: `ACC-${id}`,
    studyUid: null,
    studyDate: '2026-11-20',
    studyTime: null,
    modalities: ['CT'],
    bodyPart: null,
    title,
    seriesCount: 1,
    instanceCount: 10,
    status: 'ready',
    statusLabel: '可查看',
    statusMessage: null,
    archived: false,
    report,
    createdAt: '2026-11-20T08:00:00Z',
  }
}

const brief = (id: string, status: string, statusLabel: string) => ({
  id,
  status,
  statusLabel,
  issuedAt: '2026-11-20T09:00:00Z',
  read: false,
  private: false,
})

const DATA: HospitalReports = {
  hospital: { id: 'h1', name: '示例市第一人民医院' },
  room: { id: 'r1', name: '放射科' },
  counts: { total: 3, examined: 1, reporting: 1, reported: 0, filmReady: 1 },
  items: [
    { state: 'examined', stateLabel: '已检查', exam: exam('e1', '头颅 CT 平扫', null) },
    {
      state: 'reporting',
      stateLabel: '报告中',
      exam: exam('e2', '胸部 CT', brief('r2', 'preliminary', '初步报告')),
    },
    {
      state: 'filmReady',
      stateLabel: '可取片',
      exam: exam('e3', '头颅 MR 平扫', brief('r3', 'final', '正式报告')),
    },
  ],
}

function Page({ hospitalId, roomId }: { hospitalId?: string; roomId?: string }) {
  return <HospitalReportsView model={useHospitalReports(hospitalId, roomId)} />
}

async function flush() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0))
  })
}

beforeEach(() => jest.clearAllMocks())

describe('院内报告', () => {
  it('groups by state, the most actionable first', () => {
    expect(groupByState(DATA.items).map((group) => group.label)).toEqual([
      '可取片',
      '报告中',
      '已检查',
    ])
  })

  it('shows the hospital, the room, the counts and each exam with its state tag and links', async () => {
    mocked.mockResolvedValue(DATA)
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderComponent(<Page hospitalId="h1" roomId="r1" />)
    await flush()
    expect(mocked).toHaveBeenCalledWith({ hospitalId: 'h1', roomId: 'r1' })
    expect(screen.getByText('示例市第一人民医院')).toBeTruthy()
    expect(screen.getByText('扫码位置：放射科')).toBeTruthy()
    expect(screen.getByText('共 3 项检查')).toBeTruthy()
    expect(screen.getByText('可取片（1）')).toBeTruthy()
    expect(screen.getByText('报告中（1）')).toBeTruthy()
    expect(screen.getByText('已检查（1）')).toBeTruthy()
    expect(screen.queryByText(/已出报告（/)).toBeNull()
    expect(document.querySelectorAll('.hospital-reports__tag')).toHaveLength(3)
    // 已检查 has no report: only 影像详情.
    expect(screen.getAllByText('报告详情')).toHaveLength(2)
    fireEvent.click(screen.getAllByText('报告详情')[0]!)
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/personalReport/detail?id=r3' })
    fireEvent.click(screen.getAllByText('影像详情')[2]!)
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/personalImage/detail?id=e1' })
  })

  it('says so when the hospital has nothing of the person yet', async () => {
    mocked.mockResolvedValue({
      ...DATA,
      room: null,
      counts: { total: 0, examined: 0, reporting: 0, reported: 0, filmReady: 0 },
      items: [],
    })
    await renderComponent(<Page hospitalId="h1" />)
    await flush()
    expect(screen.getByText(EMPTY_TEXT)).toBeTruthy()
    expect(screen.getByText('扫码位置：医院自助终端')).toBeTruthy()
  })

  it("shows the server's refusal (an unknown room) and a made-up link asks nothing", async () => {
    mocked.mockRejectedValue(refusal('该诊室不存在，请扫描医院诊室或自助终端上的二维码', 404))
    await renderComponent(<Page hospitalId="h1" roomId="nope" />)
    await flush()
    expect(screen.getByRole('alert').textContent).toContain('该诊室不存在')

    mocked.mockClear()
    await renderComponent(<Page hospitalId="../x" />)
    await flush()
    expect(mocked).not.toHaveBeenCalled()
    expect(screen.getAllByRole('alert').at(-1)!.textContent).toContain('二维码无效')
  })
})
