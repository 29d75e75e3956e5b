import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { inputsDrawn, typeInto } from '@/components/form/__tests__/inputs'
import { HttpError } from '@/services/http'
import { confirmClaim, lookupExamClaim, searchHospitals, sendClaimCode } from '@/services/claims'
import { ClaimQueryView } from '../components/claim-query-view'
import { useClaimQuery } from '../hooks/use-claim-query'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/claims', () => ({
  searchHospitals: jest.fn(),
  lookupExamClaim: jest.fn(),
  sendClaimCode: jest.fn(),
  confirmClaim: jest.fn(),
}))

const mocked = {
  searchHospitals: jest.mocked(searchHospitals),
  lookupExamClaim: jest.mocked(lookupExamClaim),
  sendClaimCode: jest.mocked(sendClaimCode),
  confirmClaim: jest.mocked(confirmClaim),
}

const HOSPITAL = {
  id: 'h1',
  name: '示例市第一人民医院',
  level: '三级甲等',
  province: '北京市',
  city: '北京市',
  address: '示例路 1 号',
  regionName: null,
  demo: false,
}

function Page() {
  return <ClaimQueryView view={useClaimQuery()} />
}

function refusal(status: number, message: string) {
  return new HttpError(
    {
      statusCode: status,
      header: {},
      data: { code: status, message: 'x', data: null, error: message },
    },
    'business',
  )
}

async function flush(ms = 0) {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, ms))
  })
}

async function pickHospital() {
  fireEvent.click(screen.getByText('请选择医院'))
  // The search waits 300 ms after typing stops.
  await flush(350)
  fireEvent.click(await screen.findByText(HOSPITAL.name))
}

beforeEach(() => {
  jest.clearAllMocks()
  mocked.searchHospitals.mockResolvedValue({ items: [HOSPITAL], total: 1, page: 1, pageSize: 20 })
})

describe('影像查询', () => {
  it('finds the exam, proves the recorded phone and adds it', async () => {
    mocked.lookupExamClaim.mockResolvedValue({
      ticket: 'T1',
      mobileMasked: '137****5678',
      alreadyMine: false,
      examId: null,
    })
    mocked.sendClaimCode.mockResolvedValue({
      mobileMasked: '137****5678',
      cooldownSeconds: 60,
      expiresInSeconds: 300,
    })
    mocked.confirmClaim.mockResolvedValue({
      examId: 'e1',
      hospital: { id: 'h1', name: HOSPITAL.name },
      reportId: 'r1',
      via: 'query',
    })
    await renderComponent(<Page />)
    await pickHospital()
    expect(screen.getAllByText(HOSPITAL.name).length).toBeGreaterThan(0)
    await inputsDrawn()
    typeInto('检查单上的检查号', ' CT2030000001 ')
    typeInto('检查时登记的姓名', '张三')
    fireEvent.click(screen.getByText('查询'))
    await flush()
    expect(mocked.lookupExamClaim).toHaveBeenCalledWith({
      hospitalId: 'h1',
      examNumber: 'CT2030000001',
      name: '张三',
    })
    // Only the masked phone the hospital recorded is shown.
    expect(screen.getByText('137****5678', { exact: false })).toBeTruthy()
    fireEvent.click(screen.getByText('获取验证码'))
    await flush()
    expect(mocked.sendClaimCode).toHaveBeenCalledWith('T1')
    await inputsDrawn()
    typeInto('请输入验证码', '123456')
    fireEvent.click(screen.getByText('验证并添加到我的影像'))
    await flush()
    expect(mocked.confirmClaim).toHaveBeenCalledWith('T1', '123456')
    expect(screen.getByText('已添加到我的影像')).toBeTruthy()
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([])
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    fireEvent.click(screen.getByText('查看报告'))
    await flush()
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/personalReport/detail?id=r1' })
  })

  it('asks for a hospital and the slip before asking the server', async () => {
    await renderComponent(<Page />)
    fireEvent.click(screen.getByText('查询'))
    await flush()
    expect(screen.getByText('请选择医院', { selector: '[role="alert"]' })).toBeTruthy()
    expect(screen.getByText('请输入检查号')).toBeTruthy()
    expect(screen.getByText('请输入姓名')).toBeTruthy()
    expect(mocked.lookupExamClaim).not.toHaveBeenCalled()
  })

  it("shows the server's one answer for a miss, and keeps what was typed", async () => {
    mocked.lookupExamClaim.mockRejectedValue(
      refusal(404, '未找到匹配的检查，请核对医院、检查号和姓名'),
    )
    await renderComponent(<Page />)
    await pickHospital()
    await inputsDrawn()
    typeInto('检查单上的检查号', 'CT1')
    typeInto('检查时登记的姓名', '李四')
    fireEvent.click(screen.getByText('查询'))
    await flush()
    expect(screen.getByText('未找到匹配的检查，请核对医院、检查号和姓名')).toBeTruthy()
    expect(screen.queryByText('获取验证码')).toBeNull()
  })

  it('says so when the exam is already in the account, without a code', async () => {
    mocked.lookupExamClaim.mockResolvedValue({
      ticket: 'T',
      mobileMasked: '',
      alreadyMine: true,
      examId: 'e9',
    })
    await renderComponent(<Page />)
    await pickHospital()
    await inputsDrawn()
    typeInto('检查单上的检查号', 'CT9')
    typeInto('检查时登记的姓名', '张三')
    fireEvent.click(screen.getByText('查询'))
    await flush()
    expect(screen.getByText('该检查已在您的影像中')).toBeTruthy()
    expect(mocked.sendClaimCode).not.toHaveBeenCalled()
  })

  it('shows a wrong code as the server says it and does not claim', async () => {
    mocked.lookupExamClaim.mockResolvedValue({
      ticket: 'T2',
      mobileMasked: '137****0000',
      alreadyMine: false,
      examId: null,
    })
    mocked.confirmClaim.mockRejectedValue(refusal(400, '验证码错误，还可尝试 4 次'))
    await renderComponent(<Page />)
    await pickHospital()
    await inputsDrawn()
    typeInto('检查单上的检查号', 'CT2')
    typeInto('检查时登记的姓名', '张三')
    fireEvent.click(screen.getByText('查询'))
    await flush()
    await inputsDrawn()
    typeInto('请输入验证码', '000000')
    fireEvent.click(screen.getByText('验证并添加到我的影像'))
    await flush()
    expect(screen.getByText('验证码错误，还可尝试 4 次')).toBeTruthy()
    expect(screen.queryByText('已添加到我的影像')).toBeNull()
  })
})
