import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { HOSPITAL_REQUEST_MESSAGES } from '@contract/main/hospital-requests'
import { typeInto } from '@/components/form/__tests__/inputs'
import { createHospitalRequest, onExpertHospitalPicked } from '@/services/experts'
import {
  type DirectoryHospital,
  listDirectoryHospitals,
  pageDirectoryHospitals,
} from '@/services/hospital-directory'
import { HttpError } from '@/services/http'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'
import { regionOfValue } from '../certification/components/select-hospital-view'
import { requestValuesFrom } from '../certification/hooks/use-hospital-request'
import { regionLabel, regionsOf } from '../certification/hooks/use-select-hospital'
import { hospitalRequest } from './fixtures'

jest.mock('@/services/experts', () => ({
  ...jest.requireActual<typeof import('@/services/experts')>('@/services/experts'),
  createHospitalRequest: jest.fn(),
}))

jest.mock('@/services/hospital-directory', () => ({
  ...jest.requireActual<typeof import('@/services/hospital-directory')>(
    '@/services/hospital-directory',
  ),
  listDirectoryHospitals: jest.fn(),
  pageDirectoryHospitals: jest.fn(),
}))

function hospital(
  id: string,
  name: string,
  province: string,
  city: string,
  demo = false,
): DirectoryHospital {
  return {
    id,
    name,
    level: '三级甲等',
    province,
    city,
    address: `${city}健康路 1 号`,
    regionName: null,
    demo,
  }
}

const BEIJING = hospital('h1', '示例市第一人民医院', '北京市', '北京市', true)
const GUANGZHOU = hospital('h2', '广州市第一人民医院', '广东省', '广州市')
const SHENZHEN = hospital('h3', '深圳市人民医院', '广东省', '深圳市')
const ALL = [BEIJING, GUANGZHOU, SHENZHEN]
const REQUEST = hospitalRequest()
const NAME = '与医院公章或执业证书一致'

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  jest.mocked(listDirectoryHospitals).mockResolvedValue(ALL)
  jest.mocked(pageDirectoryHospitals).mockImplementation(async (keyword) => {
    const items = ALL.filter((one) => one.name.includes(keyword))
    return { items, total: items.length, page: 1, pageSize: 10 }
  })
  jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'navigateBack:ok' })
  jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'switchTab:ok' })
})

describe('选择医院 for certification', () => {
  it('lists the directory, marks demo hospitals 演示, and hands the tapped one back', async () => {
    const picked = jest.fn()
    const stop = onExpertHospitalPicked(picked)
    await renderPage('pages/expertPerfect/selectHos')
    expect(await screen.findByText('示例市第一人民医院')).toBeTruthy()
    expect(screen.getByLabelText('选择示例市第一人民医院（演示）')).toBeTruthy()
    expect(screen.getAllByText('演示')).toHaveLength(1)
    fireEvent.click(screen.getByText('深圳市人民医院'))
    expect(picked).toHaveBeenCalledWith({ kind: 'hospital', hospital: SHENZHEN })
    // Back to the form (here, opened on its own, the stack has no form: home instead).
    await waitFor(() => expect(Taro.switchTab).toHaveBeenCalled())
    stop()
  })

  it('searches the directory by name, page by page', async () => {
    await renderPage('pages/expertPerfect/selectHos')
    await screen.findByText('深圳市人民医院')
    jest.useFakeTimers()
    try {
      const input = document.querySelector('.select-hospital__search input') as HTMLInputElement
      fireEvent.change(input, { target: { value: '广州' } })
      fireEvent.input(input, { target: { value: '广州' } })
      jest.advanceTimersByTime(600)
    } finally {
      jest.useRealTimers()
    }
    await waitFor(() => expect(pageDirectoryHospitals).toHaveBeenLastCalledWith('广州', 1, 10))
    await waitFor(() => expect(screen.queryByText('深圳市人民医院')).toBeNull())
    expect(screen.getByText('广州市第一人民医院')).toBeTruthy()
  })

  it('找不到我的医院？ checks the request in the contract’s words, then hands it back', async () => {
    const picked = jest.fn()
    const stop = onExpertHospitalPicked(picked)
    jest.mocked(createHospitalRequest).mockResolvedValue(REQUEST)
    await renderPage('pages/expertPerfect/selectHos')
    expect(await screen.findByText('找不到我的医院？')).toBeTruthy()
    fireEvent.click(screen.getByText('申请添加医院'))
    fireEvent.click(await screen.findByText('提交申请'))
    expect(await screen.findByText(HOSPITAL_REQUEST_MESSAGES.nameRequired)).toBeTruthy()
    expect(screen.getByText(HOSPITAL_REQUEST_MESSAGES.provinceRequired)).toBeTruthy()
    expect(screen.getByText(HOSPITAL_REQUEST_MESSAGES.cityRequired)).toBeTruthy()
    expect(createHospitalRequest).not.toHaveBeenCalled()

    typeInto(NAME, '示例县人民医院')
    typeInto('如 广东省', '河北省')
    typeInto('如 广州市', '石家庄市')
    typeInto('街道门牌，便于核实', '   ')
    await waitFor(() =>
      expect(screen.queryByText(HOSPITAL_REQUEST_MESSAGES.nameRequired)).toBeNull(),
    )
    fireEvent.click(screen.getByText('提交申请'))
    await waitFor(() =>
      expect(createHospitalRequest).toHaveBeenCalledWith({
        name: '示例县人民医院',
        province: '河北省',
        city: '石家庄市',
      }),
    )
    expect(picked).toHaveBeenCalledWith({ kind: 'request', request: REQUEST })
    await waitFor(() => expect(Taro.switchTab).toHaveBeenCalled())
    stop()
  })

  it('starts the request from the search word and the chosen region', () => {
    expect(requestValuesFrom({ province: '广东省', city: '深圳市' }, '南山医院')).toEqual({
      name: '南山医院',
      province: '广东省',
      city: '深圳市',
      address: '',
    })
    expect(requestValuesFrom({ province: '广东省', city: null })).toEqual({
      name: '',
      province: '广东省',
      city: '',
      address: '',
    })
  })

  it('a name already listed: says so and searches the directory for it', async () => {
    const listed = HOSPITAL_REQUEST_MESSAGES.alreadyListed('深圳市人民医院')
    jest.mocked(createHospitalRequest).mockRejectedValue(
      new HttpError(
        {
          statusCode: 400,
          data: { code: 400, message: listed, data: null, error: listed },
          header: {},
        },
        'business',
      ),
    )
    await renderPage('pages/expertPerfect/selectHos')
    fireEvent.click(await screen.findByText('申请添加医院'))
    typeInto(NAME, ' 深圳市人民医院 ')
    typeInto('如 广东省', '广东省')
    typeInto('如 广州市', '深圳市')
    fireEvent.click(screen.getByText('提交申请'))
    expect(await screen.findByText(listed)).toBeTruthy()
    await waitFor(() =>
      expect(pageDirectoryHospitals).toHaveBeenLastCalledWith('深圳市人民医院', 1, 10),
    )
    const search = document.querySelector('.select-hospital__search input') as HTMLInputElement
    expect(search.value).toBe('深圳市人民医院')
    expect(screen.queryByText('提交申请')).toBeNull()
  })
})

describe('the region cascade', () => {
  it('builds provinces and cities from the hospitals, with counts', () => {
    expect(regionsOf(ALL)).toEqual([
      { name: '北京市', count: 1, cities: [{ name: '北京市', count: 1 }] },
      {
        name: '广东省',
        count: 2,
        cities: [
          { name: '广州市', count: 1 },
          { name: '深圳市', count: 1 },
        ],
      },
    ])
  })

  it('reads a cascader value back as a region, and says it once for a municipality', () => {
    expect(regionOfValue('广东省:whole')).toEqual({ province: '广东省', city: null })
    expect(regionOfValue('广东省\u0000深圳市')).toEqual({ province: '广东省', city: '深圳市' })
    expect(regionOfValue('北京市')).toEqual({ province: '北京市', city: null })
    expect(regionLabel({ province: '北京市', city: '北京市' })).toBe('北京市')
    expect(regionLabel({ province: '广东省', city: '深圳市' })).toBe('广东省 深圳市')
    expect(regionLabel(null)).toBe('全国')
  })
})
