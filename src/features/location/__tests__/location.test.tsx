import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { typeInto } from '@/components/form/__tests__/inputs'
import { chooseOnSystemMap, MAP_MESSAGES, mapLinks, openSystemMap } from '@/platform/map'
import { openAsPage } from '@/platform/web-page'
import { onPlaceChosen } from '@/services/place-pick'
import { renderPage } from '../../../../jest/taro-render'

const HOSPITAL = { name: '示例市第一人民医院', address: '示例市人民路 1 号' }

async function withPlatform(platform: 'weapp' | 'h5', run: () => Promise<void>): Promise<void> {
  const before = process.env.TARO_ENV
  process.env.TARO_ENV = platform
  try {
    await run()
  } finally {
    process.env.TARO_ENV = before
  }
}

jest.mock('@/platform/web-page', () => ({ openAsPage: jest.fn(() => true) }))
const assign = jest.mocked(openAsPage)

beforeEach(() => {
  jest.restoreAllMocks()
  assign.mockClear()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
})

describe('查看位置 (/open-location) in H5', () => {
  it('shows the place and opens 高德地图 at its coordinates', async () => {
    await renderPage(
      `open-location?name=${encodeURIComponent(HOSPITAL.name)}&address=${encodeURIComponent(HOSPITAL.address)}&lat=30.2741&lng=120.1551`,
    )
    expect(await screen.findByText(HOSPITAL.name)).toBeTruthy()
    expect(screen.getByText(HOSPITAL.address)).toBeTruthy()
    expect(screen.queryByText(/暂无精确坐标/)).toBeNull()
    fireEvent.click(screen.getByText('用高德地图打开'))
    expect(assign).toHaveBeenCalledWith(
      expect.stringContaining('https://uri.amap.com/marker?position=120.1551,30.2741'),
    )
  })

  it('without coordinates it says the map will search, and searches name and address', async () => {
    await renderPage(
      `open-location?name=${encodeURIComponent(HOSPITAL.name)}&address=${encodeURIComponent(HOSPITAL.address)}`,
    )
    expect(await screen.findByText(/暂无精确坐标/)).toBeTruthy()
    fireEvent.click(screen.getByText('用百度地图打开'))
    expect(assign).toHaveBeenCalledWith(
      expect.stringContaining(
        `geocoder?address=${encodeURIComponent(`${HOSPITAL.name} ${HOSPITAL.address}`)}`,
      ),
    )
    const copy = jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'ok' } as never)
    fireEvent.click(screen.getByText('复制地址'))
    expect(copy).toHaveBeenCalledWith({ data: `${HOSPITAL.name} ${HOSPITAL.address}` })
  })
})

describe('查看位置 without a place', () => {
  it('H5: says there is nothing to show, offers 返回, and no map buttons', async () => {
    const switchTab = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('open-location')
    expect(await screen.findByText(MAP_MESSAGES.noPlace)).toBeTruthy()
    expect(screen.queryByText('未命名地点')).toBeNull()
    expect(screen.queryByText(/地图打开/)).toBeNull()
    expect(screen.queryByText('复制地址')).toBeNull()
    fireEvent.click(screen.getByText('返回'))
    await waitFor(() => expect(switchTab).toHaveBeenCalledWith({ url: '/pages/main/main' }))
    expect(assign).not.toHaveBeenCalled()
  })

  it('weapp: no 在地图中查看并导航 and no map opened', async () => {
    const openLocation = jest.spyOn(Taro, 'openLocation').mockResolvedValue({ errMsg: 'ok' })
    await withPlatform('weapp', async () => {
      await renderPage('open-location')
      expect(await screen.findByText(MAP_MESSAGES.noPlace)).toBeTruthy()
      expect(screen.queryByText('在地图中查看并导航')).toBeNull()
      expect(screen.queryByText(/地图打开/)).toBeNull()
    })
    expect(openLocation).not.toHaveBeenCalled()
  })

  it('coordinates alone are enough for a map; a name or address alone for a search', () => {
    const none = { name: '', address: '', latitude: null, longitude: null }
    expect(mapLinks(none)).toEqual([])
    expect(mapLinks({ ...none, latitude: 30.1, longitude: 120.2 })).toHaveLength(2)
    expect(mapLinks({ ...none, address: HOSPITAL.address })).toHaveLength(2)
  })
})

describe('选择位置 (/choose-location) in H5', () => {
  it('asks for a name or address, then hands the place back to the opener', async () => {
    const chosen = jest.fn()
    const stop = onPlaceChosen(chosen)
    // Opened alone here (no page under it): back() falls back to the home tab.
    const back = jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('choose-location')
    fireEvent.click(await screen.findByText('确定'))
    expect(chosen).not.toHaveBeenCalled()
    expect(Taro.showToast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '请填写地点名称或地址' }),
    )
    typeInto('详细地址', HOSPITAL.address)
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() =>
      expect(chosen).toHaveBeenCalledWith({
        name: '',
        address: HOSPITAL.address,
        latitude: null,
        longitude: null,
      }),
    )
    expect(back).toHaveBeenCalled()
    stop()
  })
})

describe('the mini-program map (platform/map, weapp)', () => {
  it('opens WeChat’s map at the coordinates, and only with coordinates', async () => {
    const open = jest.fn().mockResolvedValue({ errMsg: 'openLocation:ok' })
    ;(Taro as unknown as { openLocation: unknown }).openLocation = open
    await withPlatform('weapp', async () => {
      expect(await openSystemMap({ ...HOSPITAL, latitude: 30.27, longitude: 120.15 })).toBe(true)
      expect(await openSystemMap({ ...HOSPITAL, latitude: null, longitude: null })).toBe(false)
    })
    expect(open).toHaveBeenCalledTimes(1)
    expect(open).toHaveBeenCalledWith(
      expect.objectContaining({ latitude: 30.27, longitude: 120.15, name: HOSPITAL.name }),
    )
  })

  it('turns the picker’s refusal into a sentence with the settings, and a cancel into nothing', async () => {
    const choose = jest.fn()
    ;(Taro as unknown as { chooseLocation: unknown }).chooseLocation = choose
    choose.mockRejectedValueOnce({ errMsg: 'chooseLocation:fail auth deny' })
    choose.mockRejectedValueOnce({ errMsg: 'chooseLocation:fail cancel' })
    choose.mockResolvedValueOnce({ name: '', address: '人民路 1 号', latitude: 30, longitude: 120 })
    await withPlatform('weapp', async () => {
      expect(await chooseOnSystemMap()).toEqual({ status: 'denied', message: MAP_MESSAGES.denied })
      expect(await chooseOnSystemMap()).toEqual({ status: 'cancelled' })
      expect(await chooseOnSystemMap()).toEqual({
        status: 'ok',
        place: { name: '人民路 1 号', address: '人民路 1 号', latitude: 30, longitude: 120 },
      })
    })
  })

  it('H5 has no system map: links with a marker or a search', () => {
    const links = mapLinks({ ...HOSPITAL, latitude: 30.1, longitude: 120.2 })
    expect(links.map((l) => l.label)).toEqual(['高德地图', '百度地图'])
    expect(links[1]!.url).toContain('location=30.1,120.2')
    expect(links[1]!.url).toContain('coord_type=gcj02')
  })
})
