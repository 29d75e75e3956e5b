import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { getExpertFilters, listExperts } from '@/services/expert-profiles'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../../jest/taro-render'
import { card } from '../../__tests__/fixtures'

jest.mock('@/services/expert-profiles', () => ({
  ...jest.requireActual<typeof import('@/services/expert-profiles')>('@/services/expert-profiles'),
  listExperts: jest.fn(),
  getExpertFilters: jest.fn(),
}))

const list = jest.mocked(listExperts)

let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.mocked(getExpertFilters).mockResolvedValue({
    departments: ['放射科', '呼吸内科'],
    regions: [{ province: '上海市', cities: ['上海市'] }],
  })
})

function button(label: string): HTMLElement {
  const found = Array.from(document.querySelectorAll<HTMLElement>('[role=button]')).find((el) =>
    el.getAttribute('aria-label')?.startsWith(`${label}：`),
  )
  if (!found) throw new Error(`no filter ${label}`)
  return found
}

function option(text: string): HTMLElement {
  const found = Array.from(document.querySelectorAll<HTMLElement>('[role=option]')).find(
    (el) => el.textContent === text,
  )
  if (!found) throw new Error(`no option ${text}`)
  return found
}

describe('找专家 (experts/list)', () => {
  it('shows each expert as a card: who, where, tags, state, services with prices from fen', async () => {
    list.mockResolvedValue({
      items: [card(1), card(2, { accepting: false, demo: false })],
      total: 2,
      page: 1,
      pageSize: 10,
    })
    await renderPage('pages/experts/list')
    expect(await screen.findByText('李明华')).toBeTruthy()
    const first = document.querySelectorAll('.expert-card')[0] as HTMLElement
    expect(first.textContent).toContain('主任医师')
    expect(first.textContent).toContain('示例市第一人民医院 · 放射科')
    expect(first.textContent).toContain('肺结节')
    expect(first.textContent).toContain('接诊中')
    expect(first.textContent).toContain('图文咨询 ¥30')
    expect(first.textContent).toContain('影像会诊 ¥200.50')
    expect(first.textContent).toContain('演示专家')
    // No photo: the initial is drawn.
    expect(first.querySelector('.expert-avatar--initial')?.textContent).toBe('李')
    const second = document.querySelectorAll('.expert-card')[1] as HTMLElement
    expect(second.textContent).toContain('暂停接诊')
    expect(second.textContent).not.toContain('演示专家')
    expect(list).toHaveBeenCalledWith({ page: 1, pageSize: 10 })

    fireEvent.click(screen.getByText('李明华'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/personalDetail/personalDetail?id=e1',
      }),
    )
  })

  it('filters by 职称, 科室 and 地区 from the server’s choices, from page 1', async () => {
    list.mockResolvedValue({ items: [card(1)], total: 1, page: 1, pageSize: 10 })
    await renderPage('pages/experts/list')
    await screen.findByText('李明华')

    fireEvent.click(button('职称'))
    fireEvent.click(option('主任医师'))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(
        expect.objectContaining({ page: 1, pageSize: 10, title: 'chief' }),
      ),
    )
    expect(button('职称').textContent).toContain('主任医师')

    await waitFor(() => expect(getExpertFilters).toHaveBeenCalled())
    fireEvent.click(button('科室'))
    fireEvent.click(await waitFor(() => option('呼吸内科')))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(
        expect.objectContaining({ department: '呼吸内科', title: 'chief' }),
      ),
    )

    fireEvent.click(button('地区'))
    fireEvent.click(option('上海市'))
    // A province first, then its cities (or the whole province).
    fireEvent.click(option('上海市全部'))
    await waitFor(() =>
      expect(list).toHaveBeenLastCalledWith(
        expect.objectContaining({ province: '上海市', city: undefined }),
      ),
    )
  })

  it('says what to change when the filters leave nobody, and clears them', async () => {
    list.mockImplementation(async (query) =>
      query.service
        ? { items: [], total: 0, page: 1, pageSize: 10 }
        : { items: [card(1)], total: 1, page: 1, pageSize: 10 },
    )
    await renderPage('pages/experts/list')
    await screen.findByText('李明华')
    fireEvent.click(button('服务'))
    fireEvent.click(option('影像会诊'))
    expect(await screen.findByText('没有符合筛选条件的专家')).toBeTruthy()
    expect(screen.getByText('试试放宽科室、地区、职称或服务的条件')).toBeTruthy()
    fireEvent.click(screen.getByText('清除筛选'))
    expect(await screen.findByText('李明华')).toBeTruthy()
    expect(list).toHaveBeenLastCalledWith({ page: 1, pageSize: 10 })
  })

  it('loads the next page at the bottom and ends with -- END --', async () => {
    const reachBottom: Array<() => void> = []
    const spy = jest.spyOn(Taro, 'useReachBottom').mockImplementation((handler) => {
      reachBottom.push(handler)
    })
    const all = Array.from({ length: 12 }, (_, i) => card(i + 1))
    list.mockImplementation(async ({ page = 1 }) => ({
      items: all.slice((page - 1) * 10, page * 10),
      total: 12,
      page,
      pageSize: 10,
    }))
    await renderPage('pages/experts/list')
    await screen.findByText('专家10')
    expect(screen.queryByText('专家11')).toBeNull()
    await act(async () => reachBottom[reachBottom.length - 1]())
    expect(await screen.findByText('专家12')).toBeTruthy()
    expect(list).toHaveBeenLastCalledWith({ page: 2, pageSize: 10 })
    expect(screen.getByText('-- END --')).toBeTruthy()
    spy.mockRestore()
  })
})
