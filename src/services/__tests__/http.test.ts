import {
  HttpError,
  NetworkError,
  RequestBuildError,
  RequestCancelledError,
  encodeQuery,
  isCancelled,
  type HttpResponse,
} from '../http'
import { capture, createHarness, envelopeBody, ok } from './http-fakes'

beforeEach(() => {
  jest.useFakeTimers()
})

describe('how data is sent', () => {
  it('sends GET data as a properly encoded query string, skipping undefined, with no body', async () => {
    const h = createHarness()
    await h.http.get('/app/version', {
      softwareName: 'yingxiang weapp',
      q: '影像&报告',
      skipped: undefined,
      ids: [1, 2],
    })
    expect(h.sent[0].method).toBe('GET')
    expect(h.sent[0].url).toBe(
      '/app/version?softwareName=yingxiang%20weapp&q=%E5%BD%B1%E5%83%8F%26%E6%8A%A5%E5%91%8A&ids=1&ids=2',
    )
    expect(h.sent[0].data).toBeUndefined()
  })

  it('sends DELETE data as a query string too, appended to an existing query', async () => {
    const h = createHarness()
    await h.http.delete('/files?x=1', { id: 7 })
    expect(h.sent[0]).toMatchObject({ method: 'DELETE', url: '/files?x=1&id=7' })
    expect(h.sent[0].data).toBeUndefined()
  })

  it('defaults to POST with a JSON body', async () => {
    const h = createHarness()
    await h.http.request({ url: '/feedback/add', data: { content: '很好', score: 5 } })
    expect(h.sent[0].method).toBe('POST')
    expect(h.sent[0].header['Content-Type']).toBe('application/json;charset=UTF-8')
    expect(h.sent[0].data).toBe('{"content":"很好","score":5}')
  })

  it('sends a form-encoded body when asked', async () => {
    const h = createHarness()
    await h.http.put('/user/mod', { name: '张 三', age: 30 }, { encoding: 'form' })
    expect(h.sent[0].method).toBe('PUT')
    expect(h.sent[0].header['Content-Type']).toBe('application/x-www-form-urlencoded;charset=UTF-8')
    expect(h.sent[0].data).toBe('name=%E5%BC%A0%20%E4%B8%89&age=30')
  })

  it('prefixes the base address unless the URL is absolute', async () => {
    const h = createHarness({ baseUrl: 'https://api.example.com/main/' })
    await h.http.get('/app/version')
    await h.http.get('https://other.example.com/x')
    await h.http.get('/oauth2/token', undefined, { baseUrl: 'https://sso.example.com' })
    expect(h.sent.map((s) => s.url)).toEqual([
      'https://api.example.com/main/app/version',
      'https://other.example.com/x',
      'https://sso.example.com/oauth2/token',
    ])
  })

  it('uses a 60000 ms timeout for request, upload and download', async () => {
    const h = createHarness()
    await h.http.get('/a')
    h.reply(ok(JSON.stringify(envelopeBody(null))))
    await h.http.upload({ url: '/upload/single', filePath: 'wxfile://tmp/a.zip' })
    h.reply(ok({ tempFilePath: 'wxfile://tmp/b' }))
    await h.http.download({ url: '/files/b' })
    expect(h.sent[0].timeout).toBe(60000)
    expect(h.uploads[0].timeout).toBe(60000)
    expect(h.downloads[0].timeout).toBe(60000)
  })

  it('encodes null as empty and dates as ISO strings', () => {
    expect(encodeQuery({ a: null, d: new Date('2024-01-02T03:04:05Z') })).toBe(
      'a=&d=2024-01-02T03%3A04%3A05.000Z',
    )
  })
})

describe('headers', () => {
  it('sends Content-Type, a blank SystemId, Codetype and no RegType or Authorization by default', async () => {
    const h = createHarness({ codeType: 'weapp' })
    await h.http.get('/a')
    expect(h.sent[0].header).toEqual({
      'Content-Type': 'application/json;charset=UTF-8',
      SystemId: '',
      Codetype: 'weapp',
    })
  })

  it('sends the configured SystemId constant, RegType when given, and the bearer token', async () => {
    const h = createHarness({ systemId: 'YX01' }, { token: 'abc123' })
    await h.http.post('/app/reg', {}, { regType: '2' })
    expect(h.sent[0].header).toMatchObject({
      SystemId: 'YX01',
      RegType: '2',
      Authorization: 'Bearer abc123',
    })
  })

  it('lets a call carry the token under another header name', async () => {
    const h = createHarness({}, { token: 'abc123' })
    await h.http.get('/a', undefined, { authHeader: 'X-Access-Token' })
    expect(h.sent[0].header['X-Access-Token']).toBe('Bearer abc123')
    expect(h.sent[0].header.Authorization).toBeUndefined()
  })

  it('never leaks one call’s headers into the next', async () => {
    const h = createHarness()
    await h.http.get('/a', undefined, { header: { 'X-Trace': '1' }, regType: '1' })
    await h.http.get('/b')
    expect(h.sent[0].header['X-Trace']).toBe('1')
    expect(h.sent[1].header['X-Trace']).toBeUndefined()
    expect(h.sent[1].header.RegType).toBeUndefined()
  })

  it('reads the token at call time, so a new login is used at once', async () => {
    const h = createHarness()
    await h.http.get('/a')
    h.setToken('fresh')
    await h.http.get('/b')
    expect(h.sent[0].header.Authorization).toBeUndefined()
    expect(h.sent[1].header.Authorization).toBe('Bearer fresh')
  })
})

describe('hooks', () => {
  it('lets the request hook change the request', async () => {
    const h = createHarness({
      hooks: { request: (req) => ({ ...req, header: { ...req.header, 'X-From': 'hook' } }) },
    })
    await h.http.get('/a')
    expect(h.sent[0].header['X-From']).toBe('hook')
  })

  it('cancels silently when the request hook returns false: recognisable rejection, nothing shown', async () => {
    const h = createHarness({ hooks: { request: () => false } })
    const result = await capture(h.http.get('/a'))
    await jest.advanceTimersByTimeAsync(5000)
    expect(result.error).toBeInstanceOf(RequestCancelledError)
    expect(isCancelled(result.error)).toBe(true)
    expect(h.sent).toHaveLength(0)
    expect(h.events).toEqual([])
  })

  it('cancels from a per-call async hook as well', async () => {
    const h = createHarness()
    const result = await capture(
      h.http.get('/a', undefined, { hooks: { request: async (): Promise<false> => false } }),
    )
    expect(isCancelled(result.error)).toBe(true)
    expect(h.sent).toHaveLength(0)
  })

  it('rejects when the response hook returns false, without a toast', async () => {
    const h = createHarness({ hooks: { response: () => false } })
    const result = await capture(h.http.get('/a'))
    expect(result.error).toBeInstanceOf(HttpError)
    expect((result.error as HttpError).kind).toBe('response-hook')
    expect(h.toasts()).toEqual([])
  })

  it('uses what the response hook returns', async () => {
    const h = createHarness({
      hooks: { response: (res) => ({ ...res, data: { replaced: true } }) },
    })
    await expect(h.http.get('/a')).resolves.toEqual({ replaced: true })
  })
})

describe('loading indicator', () => {
  it('shows the masked 请求中... only after 800 ms and hides it when the call completes', async () => {
    const h = createHarness()
    h.hold()
    const call = capture(h.http.get('/slow'))
    await jest.advanceTimersByTimeAsync(799)
    expect(h.isLoadingVisible()).toBe(false)
    await jest.advanceTimersByTimeAsync(1)
    expect(h.events).toEqual(['showLoading:请求中...'])
    h.release()
    await call
    expect(h.isLoadingVisible()).toBe(false)
    expect(h.events).toEqual(['showLoading:请求中...', 'hideLoading'])
  })

  it('never shows it for a call that finishes within 800 ms', async () => {
    const h = createHarness()
    await h.http.get('/fast')
    await jest.advanceTimersByTimeAsync(2000)
    expect(h.events).toEqual([])
  })

  it('shows it once for overlapping calls and hides it when the last one finishes', async () => {
    const h = createHarness()
    h.hold(2)
    const first = capture(h.http.get('/one'))
    await jest.advanceTimersByTimeAsync(500)
    const second = capture(h.http.get('/two'))
    await jest.advanceTimersByTimeAsync(1000)
    h.release()
    await first
    expect(h.isLoadingVisible()).toBe(true)
    h.release()
    await second
    expect(h.events).toEqual(['showLoading:请求中...', 'hideLoading'])
  })

  it('hides it before showing an error toast (WeChat’s hideLoading would close the toast)', async () => {
    const h = createHarness()
    h.hold()
    h.reply(ok({ code: 400, message: 'bad', data: null, error: '手机号格式不正确' }, 400))
    const call = capture(h.http.get('/slow'))
    await jest.advanceTimersByTimeAsync(900)
    h.release()
    await call
    expect(h.events).toEqual(['showLoading:请求中...', 'hideLoading', 'toast:手机号格式不正确'])
  })

  it('can be turned off for one call', async () => {
    const h = createHarness()
    h.hold()
    const call = capture(h.http.get('/poll', undefined, { loading: false }))
    await jest.advanceTimersByTimeAsync(2000)
    h.release()
    await call
    expect(h.events).toEqual([])
  })
})

describe('success', () => {
  it('resolves with the body on status 200', async () => {
    const h = createHarness()
    h.reply(ok(envelopeBody({ version: '3' })))
    await expect(h.http.get('/v')).resolves.toEqual(envelopeBody({ version: '3' }))
  })

  it('resolves with the whole response when asked', async () => {
    const h = createHarness()
    const response: HttpResponse = { statusCode: 200, data: envelopeBody(1), header: { etag: 'x' } }
    h.reply(response)
    await expect(h.http.get('/v', undefined, { fullResponse: true })).resolves.toEqual(response)
  })

  it('rejects any other status with the full response', async () => {
    const h = createHarness()
    const response: HttpResponse = { statusCode: 404, data: null, header: {} }
    h.reply(response)
    const result = await capture(h.http.get('/missing'))
    expect(result.error).toBeInstanceOf(HttpError)
    expect((result.error as HttpError).response).toBe(response)
    expect(h.toasts()).toEqual(['请求失败（404）'])
  })

  it('treats a 201 as a failure, as the spec says only 200 is success', async () => {
    const h = createHarness()
    h.reply(ok(envelopeBody(null), 201))
    const result = await capture(h.http.post('/x'))
    expect((result.error as HttpError).statusCode).toBe(201)
  })
})

describe('error catalogue', () => {
  it('401: clears the token, toasts 请重新登录！, and opens login with autoLogin=1 after 1.5 s', async () => {
    const h = createHarness({}, { token: 'old' })
    h.setCurrentUrl('/pages/personalReport/index?tab=2')
    h.reply(ok({ code: 401, message: '未登录', data: null, error: '登录已过期' }, 401))
    const result = await capture(h.http.get('/reports'))
    expect((result.error as HttpError).statusCode).toBe(401)
    expect(h.token()).toBeNull()
    expect(h.toasts()).toEqual(['请重新登录！'])
    await jest.advanceTimersByTimeAsync(1499)
    expect(h.navigations).toEqual([])
    await jest.advanceTimersByTimeAsync(1)
    expect(h.navigations).toEqual([
      '/pages/login/login?autoLogin=1&redirect=%2Fpages%2FpersonalReport%2Findex%3Ftab%3D2',
    ])
  })

  it('401 from several calls at once: one toast, one navigation', async () => {
    const h = createHarness({}, { token: 'old' })
    const unauthorized = ok({ code: 401, message: '', data: null, error: null }, 401)
    h.reply(unauthorized, unauthorized, unauthorized)
    await Promise.all([
      capture(h.http.get('/a')),
      capture(h.http.get('/b')),
      capture(h.http.get('/c')),
    ])
    await jest.advanceTimersByTimeAsync(3000)
    expect(h.toasts()).toEqual(['请重新登录！'])
    expect(h.navigations).toHaveLength(1)
  })

  it('401 again after the redirect happened is handled again', async () => {
    const h = createHarness()
    const unauthorized = ok(null, 401)
    h.reply(unauthorized)
    await capture(h.http.get('/a'))
    await jest.advanceTimersByTimeAsync(1500)
    h.reply(unauthorized)
    await capture(h.http.get('/a'))
    await jest.advanceTimersByTimeAsync(1500)
    expect(h.navigations).toHaveLength(2)
  })

  it('401 on the login page itself does not reopen it', async () => {
    const h = createHarness()
    h.setCurrentUrl('/pages/login/login?autoLogin=1')
    h.reply(ok(null, 401))
    await capture(h.http.post('/app/login'))
    await jest.advanceTimersByTimeAsync(2000)
    expect(h.toasts()).toEqual(['请重新登录！'])
    expect(h.navigations).toEqual([])
  })

  it('a body code 401 counts as 401', async () => {
    const h = createHarness({}, { token: 't' })
    h.reply(ok({ code: 401, message: '', data: null, error: null }))
    await capture(h.http.get('/a'))
    expect(h.token()).toBeNull()
  })

  it('error field: toasts the error text and rejects', async () => {
    const h = createHarness()
    h.reply(ok({ code: 400, message: 'Bad Request', data: null, error: '验证码错误' }, 400))
    const result = await capture(h.http.post('/app/login'))
    expect((result.error as HttpError).kind).toBe('business')
    expect(h.toasts()).toEqual(['验证码错误'])
  })

  it('error field on a 200: still rejected with its text shown', async () => {
    const h = createHarness()
    h.reply(ok({ code: 200, message: 'ok', data: null, error: '余额不足' }))
    const result = await capture(h.http.post('/withdraw'))
    expect(result.error).toBeInstanceOf(HttpError)
    expect(h.toasts()).toEqual(['余额不足'])
  })

  it('status 500: toasts the body’s message and rejects', async () => {
    const h = createHarness()
    h.reply(
      ok({ code: 500, message: '数据库繁忙，请稍后再试', data: null, error: 'internal' }, 500),
    )
    const result = await capture(h.http.get('/a'))
    expect((result.error as HttpError).kind).toBe('server')
    expect(h.toasts()).toEqual(['数据库繁忙，请稍后再试'])
  })

  it('body code 500 on a 200: toasts the message and rejects', async () => {
    const h = createHarness()
    h.reply(ok({ code: 500, message: '服务繁忙', data: null, error: null }))
    await expect(h.http.get('/a')).rejects.toBeInstanceOf(HttpError)
    expect(h.toasts()).toEqual(['服务繁忙'])
  })

  it('status 500 without a message: falls back to 服务端异常', async () => {
    const h = createHarness()
    h.reply(ok('<html>Internal</html>', 500))
    await capture(h.http.get('/a'))
    expect(h.toasts()).toEqual(['服务端异常'])
  })

  it('network failure: rejects with a NetworkError and tells the user to check the network', async () => {
    const h = createHarness()
    h.reply({ errMsg: 'request:fail net::ERR_INTERNET_DISCONNECTED' })
    const result = await capture(h.http.get('/a'))
    expect(result.error).toBeInstanceOf(NetworkError)
    expect(h.toasts()).toEqual(['网络异常，请检查网络后重试'])
  })

  it('timeout: rejects and says the request timed out', async () => {
    const h = createHarness()
    h.reply({ errMsg: 'request:fail timeout' })
    const result = await capture(h.http.get('/a'))
    expect((result.error as NetworkError).timedOut).toBe(true)
    expect(h.toasts()).toEqual(['网络请求超时，请检查网络后重试'])
  })

  it('a request hook that throws: loading hidden, toast 服务端异常, nothing sent', async () => {
    const h = createHarness({
      hooks: {
        request: async () => {
          await new Promise((resolve) => setTimeout(resolve, 1000))
          throw new Error('signing failed')
        },
      },
    })
    const call = capture(h.http.get('/a'))
    await jest.advanceTimersByTimeAsync(1000)
    const result = await call
    expect(result.error).toBeInstanceOf(RequestBuildError)
    expect(h.sent).toHaveLength(0)
    expect(h.isLoadingVisible()).toBe(false)
    expect(h.events).toEqual(['showLoading:请求中...', 'hideLoading', 'toast:服务端异常'])
  })

  it('data that cannot be serialised: toast 服务端异常, nothing sent', async () => {
    const h = createHarness()
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    const result = await capture(h.http.post('/a', cyclic))
    expect(result.error).toBeInstanceOf(RequestBuildError)
    expect(h.sent).toHaveLength(0)
    expect(h.toasts()).toEqual(['服务端异常'])
  })
})

describe('upload and download follow the same rules', () => {
  it('uploads with the bearer token, no JSON Content-Type, and parses the JSON answer', async () => {
    const h = createHarness({ baseUrl: 'https://h/main' }, { token: 'tk' })
    h.reply(ok(JSON.stringify(envelopeBody({ fileId: 9 }))))
    const body = await h.http.upload({
      url: '/upload/single',
      filePath: 'wxfile://tmp/a.jpg',
      formData: { kind: 'report', n: 1 },
    })
    expect(body).toEqual(envelopeBody({ fileId: 9 }))
    expect(h.uploads[0]).toMatchObject({
      url: 'https://h/main/upload/single',
      name: 'file',
      filePath: 'wxfile://tmp/a.jpg',
      formData: { kind: 'report', n: '1' },
    })
    expect(h.uploads[0].header.Authorization).toBe('Bearer tk')
    expect(h.uploads[0].header['Content-Type']).toBeUndefined()
  })

  it('an upload answered with an error field toasts it', async () => {
    const h = createHarness()
    h.reply(ok(JSON.stringify({ code: 400, message: '', data: null, error: '文件过大' }), 400))
    await expect(h.http.upload({ url: '/u', filePath: 'f' })).rejects.toBeInstanceOf(HttpError)
    expect(h.toasts()).toEqual(['文件过大'])
  })

  it('an upload answered 401 sends the user to login', async () => {
    const h = createHarness({}, { token: 'tk' })
    h.reply(ok('', 401))
    await capture(h.http.upload({ url: '/u', filePath: 'f' }))
    await jest.advanceTimersByTimeAsync(1500)
    expect(h.token()).toBeNull()
    expect(h.navigations[0]).toMatch(/^\/pages\/login\/login\?autoLogin=1/)
  })

  it('downloads with the token and resolves with the file path', async () => {
    const h = createHarness({}, { token: 'tk' })
    h.reply(ok({ tempFilePath: 'wxfile://tmp/report.pdf' }))
    await expect(h.http.download({ url: 'https://files.example.com/r.pdf' })).resolves.toEqual({
      tempFilePath: 'wxfile://tmp/report.pdf',
    })
    expect(h.downloads[0].header.Authorization).toBe('Bearer tk')
  })

  it('a download that is not 200 rejects with the response', async () => {
    const h = createHarness()
    h.reply(ok({ tempFilePath: '' }, 403))
    const result = await capture(h.http.download({ url: '/f' }))
    expect((result.error as HttpError).statusCode).toBe(403)
    expect(h.toasts()).toEqual(['请求失败（403）'])
  })

  it('a download hook returning false cancels it silently', async () => {
    const h = createHarness()
    const result = await capture(h.http.download({ url: '/f', hooks: { request: () => false } }))
    expect(isCancelled(result.error)).toBe(true)
    expect(h.downloads).toHaveLength(0)
  })
})
