import { screen, act, fireEvent } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { getPageInstance } from '@tarojs/runtime'
import { BackToTop } from '..'
import { renderComponent } from '../../../../jest/taro-render'

/** Taro's page hooks outside a page register on the app-level instance; fire its scroll handlers. */
function scrollPageTo(scrollTop: number) {
  const handlers = (
    getPageInstance('taro-app') as { onPageScroll?: Array<(e: { scrollTop: number }) => void> }
  ).onPageScroll
  act(() => handlers?.forEach((handler) => handler({ scrollTop })))
}

describe('BackToTop', () => {
  it('appears only after 1000 px of scroll and scrolls back up', async () => {
    const scrollTo = jest
      .spyOn(Taro, 'pageScrollTo')
      .mockImplementation(() => Promise.resolve({ errMsg: 'ok' }))
    await renderComponent(<BackToTop />)
    expect(screen.queryByText('顶部')).toBeNull()
    scrollPageTo(1000)
    expect(screen.queryByText('顶部')).toBeNull()
    scrollPageTo(1001)
    fireEvent.click(screen.getByText('顶部'))
    expect(scrollTo).toHaveBeenCalledWith({ scrollTop: 0, duration: 300 })
    scrollPageTo(10)
    expect(screen.queryByText('顶部')).toBeNull()
  })
})
