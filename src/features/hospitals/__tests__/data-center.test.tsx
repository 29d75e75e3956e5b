import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { profile } from '@/services/__tests__/account-fixtures'
import {
  getAreaData,
  getDefaultArea,
  listImageHospitals,
  listMyHospitals,
  listPersonalReports,
} from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { useHospitalChoice } from '@/stores/hospital-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  listMyHospitals: jest.fn(),
  listImageHospitals: jest.fn(),
  getAreaData: jest.fn(),
  getDefaultArea: jest.fn(),
  listPersonalReports: jest.fn(),
}))

const MINE = {
  id: 'h1',
  name: '示例市第一人民医院',
  level: '三级甲等',
  province: '四川省',
  city: '成都市',
  address: '示例路 1 号',
  examCount: 3,
  reportCount: 2,
  latestStudyDate: '2026-11-02',
}

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  jest.useRealTimers()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' })
  jest.mocked(listMyHospitals).mockResolvedValue([MINE])
  jest
    .mocked(listImageHospitals)
    .mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10 } as never)
  jest.mocked(getAreaData).mockResolvedValue([] as never)
  jest.mocked(getDefaultArea).mockResolvedValue(null as never)
  jest
    .mocked(listPersonalReports)
    .mockResolvedValue({ items: [], total: 0, page: 1, pageSize: 10, unread: 0 })
})

describe('数据切换中心 (hospitalList)', () => {
  it('shows 全部 as current, my hospitals with counts; choosing one is remembered and filters 我的报告', async () => {
    await renderPage('pages/hospitalList/hospitalList')
    expect(await screen.findByText('示例市第一人民医院')).toBeTruthy()
    expect(screen.getByText('3 次检查 · 2 份报告 · 最近 2026-11-02')).toBeTruthy()
    expect(document.querySelector('.data-center__current-name')?.textContent).toBe('全部医院')
    fireEvent.click(screen.getByText('示例市第一人民医院'))
    expect(useHospitalChoice.getState().chosen).toEqual({
      userId: profile().id,
      hospitalId: 'h1',
      name: '示例市第一人民医院',
    })
    await renderPage('pages/personalReport/index')
    await waitFor(() =>
      expect(listPersonalReports).toHaveBeenLastCalledWith(
        expect.objectContaining({ hospitalId: 'h1' }),
      ),
    )
  })

  it('全部 clears the choice', async () => {
    useHospitalChoice
      .getState()
      .choose({ userId: profile().id, hospitalId: 'h1', name: '示例市第一人民医院' })
    await renderPage('pages/hospitalList/hospitalList')
    await waitFor(() =>
      expect(document.querySelector('.data-center__current-name')?.textContent).toBe(
        '示例市第一人民医院',
      ),
    )
    fireEvent.click(document.querySelector('.data-center__row')!)
    expect(useHospitalChoice.getState().chosen).toBeNull()
  })

  it('导航 opens the hospital on the map without switching to it', async () => {
    jest
      .mocked(listMyHospitals)
      .mockResolvedValue([{ ...MINE, latitude: 30.66, longitude: 104.06 }])
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/hospitalList/hospitalList')
    fireEvent.click(await screen.findByLabelText('导航到示例市第一人民医院'))
    const url = navigateTo.mock.calls[0]![0].url
    expect(url.startsWith('/open-location?')).toBe(true)
    const query = new URLSearchParams(url.split('?')[1])
    expect(Object.fromEntries(query)).toEqual({
      name: '示例市第一人民医院',
      address: '示例路 1 号',
      lat: '30.66',
      lng: '104.06',
    })
    expect(useHospitalChoice.getState().chosen).toBeNull()
  })
})
