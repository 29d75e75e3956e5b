import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { getCurrentLocation } from '@/platform/location'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  getAreaData,
  getDefaultArea,
  HOSPITAL_PICKED_EVENT,
  listImageHospitals,
  locateArea,
  type ImageHospital,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  getAreaData: jest.fn(),
  getDefaultArea: jest.fn(),
  listImageHospitals: jest.fn(),
  locateArea: jest.fn(),
}))
jest.mock('@/platform/location', () => ({
  ...jest.requireActual<typeof import('@/platform/location')>('@/platform/location'),
  getCurrentLocation: jest.fn(),
}))

const hospitals = jest.mocked(listImageHospitals)
const located = jest.mocked(getCurrentLocation)

function hospital(n: number, overrides: Partial<ImageHospital> = {}): ImageHospital {
  return {
    id: `h${n}`,
    name: `第${n}人民医院`,
    level: '三级甲等',
    province: '四川省',
    city: '成都市',
    address: `人民南路 ${n} 号`,
    regionCode: '510107',
    regionName: '四川省 成都市 武侯区',
    aiReporting: n === 1,
    ...overrides,
  }
}

const CHENGDU = {
  provinceCode: '510000',
  provinceName: '四川省',
  cityCode: '510100',
  cityName: '成都市',
  districtCode: '510107',
  districtName: '武侯区',
}

beforeEach(() => {
  resetStores()
  jest.mocked(getAreaData).mockResolvedValue([
    {
      code: '510000',
      name: '四川省',
      hospitalCount: 2,
      children: [
        {
          code: '510100',
          name: '成都市',
          hospitalCount: 2,
          children: [{ code: '510107', name: '武侯区', hospitalCount: 2 }],
        },
      ],
    },
  ])
  jest.mocked(getDefaultArea).mockResolvedValue(null)
  hospitals.mockImplementation(async (query) => ({
    items: [hospital(1), hospital(2)].filter((one) => !query.aiOnly || one.aiReporting),
    total: query.aiOnly ? 1 : 2,
    page: 1,
    pageSize: 10,
  }))
})

describe('选择地区或医院 (personalImage/imageHospital)', () => {
  it('lists hospitals (AI ones marked), searches by name as one types, filters AI ones', async () => {
    const page = await renderPage('pages/personalImage/imageHospital')
    expect(await screen.findByText('第1人民医院')).toBeTruthy()
    expect(document.title).toBe('选择地区或医院')
    expect(page.element.textContent).toContain('AI报告')
    expect(page.element.textContent).toContain('全国')
    expect(hospitals).toHaveBeenLastCalledWith({ page: 1, pageSize: 10 })

    const input = screen
      .getAllByPlaceholderText('搜索医院名称')
      .find((element) => element.tagName.toLowerCase() === 'input')!
    fireEvent.change(input, { target: { value: '第2' } })
    fireEvent.input(input, { target: { value: '第2' } })
    await waitFor(
      () => expect(hospitals).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, keyword: '第2' }),
      { timeout: 2000 },
    )

    fireEvent.click(screen.getByText('只看AI报告'))
    await waitFor(() =>
      expect(hospitals).toHaveBeenLastCalledWith(expect.objectContaining({ aiOnly: true })),
    )
  })

  it('定位: a refusal says how to go on; a position picks the nearest region', async () => {
    located.mockResolvedValueOnce({ status: 'denied', message: '未获得定位权限，请手动选择地区' })
    await renderPage('pages/personalImage/imageHospital', { t: 'locate' })
    await screen.findByText('第1人民医院')
    fireEvent.click(screen.getByText('定位'))
    expect(await screen.findByText('未获得定位权限，请手动选择地区')).toBeTruthy()
    expect(locateArea).not.toHaveBeenCalled()

    located.mockResolvedValueOnce({ status: 'ok', latitude: 30.64, longitude: 104.04 })
    jest.mocked(locateArea).mockResolvedValueOnce({ area: CHENGDU, distanceKm: 2.5 })
    fireEvent.click(screen.getByText('定位'))
    expect(await screen.findByText('已定位到四川省 成都市 武侯区')).toBeTruthy()
    expect(locateArea).toHaveBeenCalledWith(30.64, 104.04)
    await waitFor(() =>
      expect(hospitals).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, regionCode: '510107' }),
    )
  })

  it('signed in, starts in the default region (where my newest exam was)', async () => {
    useSessionStore.getState().setToken({ access_token: 'tok' })
    useAppStore.getState().setProfile(profile())
    jest
      .mocked(getDefaultArea)
      .mockResolvedValue({ ...CHENGDU, districtCode: null, districtName: null })
    await renderPage('pages/personalImage/imageHospital', { t: 'default' })
    expect(await screen.findByText('四川省 成都市 ▾')).toBeTruthy()
    await waitFor(() =>
      expect(hospitals).toHaveBeenLastCalledWith({ page: 1, pageSize: 10, regionCode: '510100' }),
    )
  })

  it('opened to pick, hands the hospital back and goes back; otherwise opens my exams there', async () => {
    const picked = jest.fn()
    Taro.eventCenter.on(HOSPITAL_PICKED_EVENT, picked)
    const navigateBack = jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' })
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/personalImage/imageHospital', { pick: 1 })
    expect(await screen.findByText('点击医院即选定')).toBeTruthy()
    await act(async () => {
      fireEvent.click(screen.getByText('第2人民医院'))
    })
    expect(picked).toHaveBeenCalledWith(expect.objectContaining({ id: 'h2', name: '第2人民医院' }))
    Taro.eventCenter.off(HOSPITAL_PICKED_EVENT, picked)
    navigateBack.mockRestore()
    switchTab.mockRestore()

    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/personalImage/imageHospital', { t: 'browse' })
    await screen.findByText('点击医院查看我在该院的检查')
    fireEvent.click(screen.getAllByText('第1人民医院').pop()!)
    expect(navigateTo).toHaveBeenLastCalledWith({
      url: `/pages/personalImage/list?hospitalId=h1&name=${encodeURIComponent('第1人民医院')}`,
    })
    navigateTo.mockRestore()
  })
})
