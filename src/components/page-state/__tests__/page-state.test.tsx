import { screen, fireEvent } from '@testing-library/react'
import { PageState } from '..'
import { renderComponent } from '../../../../jest/taro-render'

describe('PageState', () => {
  it('shows the empty tip of the spec', async () => {
    await renderComponent(<PageState status="empty" />)
    expect(screen.getByText('~ 空空如也 ~')).toBeTruthy()
  })

  it('shows loading text while loading', async () => {
    await renderComponent(<PageState status="loading" />)
    expect(screen.getByText('加载中 ...')).toBeTruthy()
  })

  it('offers 重试 on error and calls back', async () => {
    const onRetry = jest.fn()
    await renderComponent(<PageState status="error" message="网络不给力" onRetry={onRetry} />)
    expect(screen.getByText('网络不给力')).toBeTruthy()
    fireEvent.click(screen.getByText('重试'))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })

  it('has no retry button without a handler', async () => {
    await renderComponent(<PageState status="error" />)
    expect(screen.queryByText('重试')).toBeNull()
  })

  it('offers its action where retrying cannot help', async () => {
    const onClick = jest.fn()
    await renderComponent(
      <PageState status="empty" message="文章不存在或已下架" action={{ text: '返回', onClick }} />,
    )
    expect(screen.queryByText('重试')).toBeNull()
    fireEvent.click(screen.getByText('返回'))
    expect(onClick).toHaveBeenCalledTimes(1)
  })
})
