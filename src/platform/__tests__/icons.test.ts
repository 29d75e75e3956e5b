import { globalConfig } from '@nutui/icons-react-taro/dist/es/icons/internal.js'
import { setUpIcons } from '../icons'

describe('setUpIcons', () => {
  const before = process.env.TARO_ENV
  afterEach(() => {
    process.env.TARO_ENV = before
    globalConfig.tag = 'i'
  })

  it('draws NutUI icons on a view in the mini-program, which has no <i>', () => {
    process.env.TARO_ENV = 'weapp'
    setUpIcons()
    expect(globalConfig.tag).toBe('view')
  })

  it('keeps the <i> of H5', () => {
    process.env.TARO_ENV = 'h5'
    setUpIcons()
    expect(globalConfig.tag).toBe('i')
  })
})
