import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { listHotSearches, search } from '@/services/content'
import { resetStores } from '@/stores/reset-stores'
import { renderPage } from '../../../../jest/taro-render'

jest.mock('@/services/content', () => ({
  ...jest.requireActual<typeof import('@/services/content')>('@/services/content'),
  search: jest.fn(),
  listHotSearches: jest.fn(),
  listSearchHistory: jest.fn(),
}))

describe('搜索: experts (issue 20)', () => {
  it('an expert hit opens the profile by its id, and nothing says 即将上线', async () => {
    resetStores()
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
    const toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'showToast:ok' })
    jest.mocked(listHotSearches).mockResolvedValue(['示例医院'])
    jest.mocked(search).mockResolvedValue({
      hits: [
        {
          kind: 'expert',
          id: 'e1',
          title: [['李明华', false]],
          snippet: [
            ['示例', true],
            ['市第一人民医院 · 放射科', false],
          ],
          link: { route: 'personalDetail', params: { id: 'e1' } },
        },
      ],
      totals: { article: 0, video: 0, hospital: 0, expert: 1 },
    })
    await renderPage('pages/search/search')
    fireEvent.click(await screen.findByText('示例医院'))
    fireEvent.click(await screen.findByText('李明华'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenLastCalledWith({
        url: '/pages/personalDetail/personalDetail?id=e1',
      }),
    )
    expect(toast).not.toHaveBeenCalled()
    expect(document.body.textContent).not.toContain('即将上线')
  })
})
