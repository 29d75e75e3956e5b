import { renderHook } from '@testing-library/react'
import { useRouter } from '@tarojs/taro'
import { useParams } from '../use-params'

jest.mock('@tarojs/taro', () => ({
  ...jest.requireActual<object>('@tarojs/taro'),
  useRouter: jest.fn(),
}))

const router = jest.mocked(useRouter)

function paramsOf(query: Record<string, string | undefined>) {
  router.mockReturnValue({ params: query } as unknown as ReturnType<typeof useRouter>)
  return renderHook(() => useParams()).result.current
}

describe('useParams', () => {
  it('reads a percent-encoded Chinese parameter as written', () => {
    // What Taro hands over for ?name=四川省人民医院 (encoded in H5 and in the mini-program).
    const params = paramsOf({ name: encodeURIComponent('四川省人民医院'), id: 'e-1' })
    expect(params).toEqual({ name: '四川省人民医院', id: 'e-1' })
  })

  it('decodes once only: a value that was itself encoded text stays encoded text', () => {
    const written = encodeURIComponent('/pages/personalImage/list?name=第一医院')
    expect(paramsOf({ redirect: encodeURIComponent(written) }).redirect).toBe(written)
  })

  it('keeps a malformed value (a hand-edited link) instead of crashing the page', () => {
    expect(paramsOf({ discount: '100%', empty: '' })).toEqual({ discount: '100%', empty: '' })
  })

  it('leaves an absent parameter absent', () => {
    expect(paramsOf({ id: undefined }).id).toBeUndefined()
  })
})
