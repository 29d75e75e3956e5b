import { allHosts, apiOrigin, hostOf, systemId } from '../hosts'

const saved = { ...process.env }

afterEach(() => {
  process.env = { ...saved }
})

describe('service hosts', () => {
  it('H5 defaults to the page’s own origin with the reference server’s prefixes', () => {
    process.env.TARO_ENV = 'h5'
    delete process.env.TARO_APP_API_ORIGIN
    expect(apiOrigin()).toBe('')
    expect(hostOf('main')).toBe('/main')
    expect(hostOf('reportModel')).toBe('/report-model')
    expect(hostOf('system')).toBe('')
  })

  it('weapp defaults to the local reference server', () => {
    process.env.TARO_ENV = 'weapp'
    delete process.env.TARO_APP_API_ORIGIN
    expect(hostOf('sso')).toBe('http://127.0.0.1:8080/sso')
  })

  it('TARO_APP_API_ORIGIN moves every service; TARO_APP_HOST_<SERVICE> replaces one whole', () => {
    process.env.TARO_APP_API_ORIGIN = 'https://api.example.com/'
    process.env.TARO_APP_HOST_CONSULT = 'https://consult.example.com/v2/'
    process.env.TARO_APP_HOST_REPORT_MODEL = 'https://rm.example.com'
    const hosts = allHosts()
    expect(hosts.main).toBe('https://api.example.com/main')
    expect(hosts.consult).toBe('https://consult.example.com/v2')
    expect(hosts.reportModel).toBe('https://rm.example.com')
    expect(hosts.knowledge).toBe('https://api.example.com/knowledge')
  })

  it('SystemId is TARO_APP_SYSTEM_ID, trimmed, and blank when not configured (SPEC section 7)', () => {
    delete process.env.TARO_APP_SYSTEM_ID
    expect(systemId()).toBe('')
    process.env.TARO_APP_SYSTEM_ID = '  YX-APP-01 '
    expect(systemId()).toBe('YX-APP-01')
  })
})
