import { Profiler } from 'react'
import { act, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { RefreshList, type PagedList } from '..'
import { renderComponent } from '../../../../jest/taro-render'

// Issue 6: RefreshList re-renders only what changed while scrolling. Measured with a React
// Profiler (commits of the list's tree) and by counting row renders, over 100 scroll events.
// Before the change (the scroll offset in state): 100 commits and 3000 row renders for 30 rows;
// after: 2 commits (leaving the top) and no row renders.

const ROWS = 30
const SCROLL_EVENTS = 100

function listOf(items: number[]): PagedList<number> {
  return {
    items,
    status: 'ready',
    loadMore: 'idle',
    error: null,
    refresh: jest.fn(async () => {}),
    loadNext: jest.fn(async () => {}),
  }
}

describe('RefreshList while scrolling', () => {
  it(`renders (almost) nothing for ${SCROLL_EVENTS} scroll events`, async () => {
    const handlers: Array<(event: { scrollTop: number }) => void> = []
    jest.spyOn(Taro, 'usePageScroll').mockImplementation((handler) => {
      handlers.push(handler as (event: { scrollTop: number }) => void)
    })
    let commits = 0
    let rowRenders = 0
    const list = listOf(Array.from({ length: ROWS }, (_, index) => index))
    const renderItem = (n: number) => {
      rowRenders += 1
      return <span>{`第${n}行`}</span>
    }
    await renderComponent(
      <Profiler id="refresh-list" onRender={() => (commits += 1)}>
        <RefreshList list={list} keyOf={(n) => n} renderItem={renderItem} />
      </Profiler>,
    )
    expect(screen.getByText(`第${ROWS - 1}行`)).toBeTruthy()
    const scroll = (scrollTop: number) => {
      // The hook is called again on every render; the latest handler is the live one.
      const handler = handlers[handlers.length - 1]
      act(() => handler({ scrollTop }))
    }
    commits = 0
    rowRenders = 0
    for (let i = 1; i <= SCROLL_EVENTS; i += 1) scroll(i * 12)
    const figures = { commits, rowRenders }
    // Back to the top: pulling must work again there.
    scroll(0)
    console.log(
      `RefreshList, ${ROWS} rows, ${SCROLL_EVENTS} scroll events: ${figures.commits} commits, ` +
        `${figures.rowRenders} row renders`,
    )
    // Leaving the top is the one change the list cares about (pull-to-refresh turns off).
    expect(figures.commits).toBeLessThanOrEqual(2)
    expect(figures.rowRenders).toBe(0)
    expect(commits).toBeLessThanOrEqual(4)
    expect(rowRenders).toBe(0)
  })
})
