import { render, screen, fireEvent } from '@testing-library/react'
import { PageState } from '..'

describe('PageState', () => {
  it('shows the empty tip of the spec', () => {
    render(<PageState status="empty" />)
    expect(screen.getByText('~ 空空如也 ~')).toBeTruthy()
  })

  it('shows loading text while loading', () => {
    render(<PageState status="loading" />)
    expect(screen.getByText('加载中 ...')).toBeTruthy()
  })

  it('offers 重试 on error and calls back', () => {
    const onRetry = jest.fn()
    render(<PageState status="error" message="网络不给力" onRetry={onRetry} />)
    expect(screen.getByText('网络不给力')).toBeTruthy()
    fireEvent.click(screen.getByText('重试'))
    expect(onRetry).toHaveBeenCalledTimes(1)
  })

  it('has no retry button without a handler', () => {
    render(<PageState status="error" />)
    expect(screen.queryByText('重试')).toBeNull()
  })
})
