import { screen, fireEvent } from '@testing-library/react'
import { RefreshList, type PagedList } from '..'
import { renderComponent } from '../../../../jest/taro-render'

function listOf(overrides: Partial<PagedList<number>>): PagedList<number> {
  return {
    items: [],
    status: 'ready',
    loadMore: 'idle',
    error: null,
    refresh: jest.fn(async () => {}),
    loadNext: jest.fn(async () => {}),
    ...overrides,
  }
}

const renderList = (list: PagedList<number>) =>
  renderComponent(
    <RefreshList list={list} keyOf={(n) => n} renderItem={(n) => <span>{`第${n}行`}</span>} />,
  )

describe('RefreshList', () => {
  it('shows the empty tip when there is nothing', async () => {
    await renderList(listOf({}))
    expect(screen.getByText('~ 空空如也 ~')).toBeTruthy()
  })

  it('shows loading before the first page', async () => {
    await renderList(listOf({ status: 'loading' }))
    expect(screen.getByText('加载中 ...')).toBeTruthy()
  })

  it('offers a retry when the first page failed', async () => {
    const list = listOf({ status: 'error' })
    await renderList(list)
    fireEvent.click(screen.getByText('重试'))
    expect(list.refresh).toHaveBeenCalled()
  })

  it('renders rows and -- END -- once at least five rows are all there is', async () => {
    await renderList(listOf({ items: [1, 2, 3, 4, 5], loadMore: 'nomore' }))
    expect(screen.getByText('第5行')).toBeTruthy()
    expect(screen.getByText('-- END --')).toBeTruthy()
  })

  it('hides -- END -- under a short list', async () => {
    await renderList(listOf({ items: [1, 2], loadMore: 'nomore' }))
    expect(screen.getByText('第2行')).toBeTruthy()
    expect(screen.queryByText('-- END --')).toBeNull()
  })

  it('shows 加载中 ... while the next page loads, and a retry after it failed', async () => {
    const { unmount } = await renderList(listOf({ items: [1], loadMore: 'loading' }))
    expect(screen.getByText('加载中 ...')).toBeTruthy()
    unmount()
    const list = listOf({ items: [1], loadMore: 'error' })
    await renderList(list)
    fireEvent.click(screen.getByText('加载失败，点击重试'))
    expect(list.loadNext).toHaveBeenCalled()
  })
})
