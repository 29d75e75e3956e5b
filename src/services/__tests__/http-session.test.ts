import Taro from '@tarojs/taro'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { SESSION_STORAGE_KEY, useSessionStore } from '@/stores/session-store'
import { REASONS } from '@contract/reasons'
import { REFRESH_RACED_ERROR } from '@contract/sso/auth'
import { NetworkError, http, isTimeout, refreshStoredSession, type HttpError } from '../http'
import { capture, createHarness, ok } from './http-fakes'

// Issue 6 points 2 and 4: silent refresh before the 401 rule, quiet calls, timeouts named as such.

beforeEach(() => {
  jest.useFakeTimers()
})

const UNAUTHORIZED = ok({ code: 401, message: '', data: null, error: '登录已过期' }, 401)

describe('silent refresh on 401', () => {
  function harness(refreshWorks = true) {
    const refresh = jest.fn(async (refreshToken: string) => {
      // What the real refresher does: a round trip, then the new session is stored.
      await new Promise((resolve) => setTimeout(resolve, 50))
      if (!refreshWorks || refreshToken !== 'r1') return false
      h.setToken('new')
      h.setRefreshToken('r2')
      return true
    })
    const h = createHarness({}, { token: 'old', refreshToken: 'r1', refresh })
    return { h, refresh }
  }

  it('refreshes once, sends the call again with the new token, and shows nothing', async () => {
    const { h, refresh } = harness()
    h.reply(UNAUTHORIZED, ok({ code: 200, message: 'ok', data: [1], error: null }))
    const result = capture(h.http.get('/reports'))
    await jest.advanceTimersByTimeAsync(100)
    expect((await result).value).toEqual({ code: 200, message: 'ok', data: [1], error: null })
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(refresh).toHaveBeenCalledWith('r1')
    expect(h.sent.map((s) => s.header.Authorization)).toEqual(['Bearer old', 'Bearer new'])
    expect(h.toasts()).toEqual([])
    await jest.advanceTimersByTimeAsync(3000)
    expect(h.navigations).toEqual([])
  })

  it('parallel 401s share one refresh (a refresh token is spent once), then all retry', async () => {
    const { h, refresh } = harness()
    h.reply(UNAUTHORIZED, UNAUTHORIZED, UNAUTHORIZED)
    const calls = [h.http.get('/a'), h.http.get('/b'), h.http.get('/c')].map(capture)
    await jest.advanceTimersByTimeAsync(100)
    const results = await Promise.all(calls)
    expect(results.every((r) => r.error === undefined)).toBe(true)
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(h.sent.slice(3).map((s) => s.header.Authorization)).toEqual([
      'Bearer new',
      'Bearer new',
      'Bearer new',
    ])
  })

  it('a 401 of a call sent before a finished refresh retries with the new token, no new refresh', async () => {
    const { h, refresh } = harness()
    h.hold()
    // Answers are taken in the order calls are answered: fast, fast again, then slow.
    h.reply(UNAUTHORIZED, ok({ code: 200, message: 'ok', data: null, error: null }), UNAUTHORIZED)
    const slow = capture(h.http.get('/slow')) // sent with 'old', answers late
    const fast = capture(h.http.get('/fast'))
    await jest.advanceTimersByTimeAsync(100) // fast: 401, refresh, retry
    expect((await fast).error).toBeUndefined()
    h.release()
    await jest.advanceTimersByTimeAsync(100)
    expect((await slow).error).toBeUndefined()
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(h.sent.map((s) => s.url)).toEqual(['/slow', '/fast', '/fast', '/slow'])
  })

  it('when the refresh fails, the 401 rule applies: cleared, 请重新登录！, login after 1.5 s', async () => {
    const { h, refresh } = harness(false)
    h.reply(UNAUTHORIZED)
    const result = capture(h.http.get('/a'))
    await jest.advanceTimersByTimeAsync(100)
    expect(((await result).error as HttpError).statusCode).toBe(401)
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(h.sent).toHaveLength(1)
    expect(h.token()).toBeNull()
    expect(h.toasts()).toEqual(['请重新登录！'])
    await jest.advanceTimersByTimeAsync(1500)
    expect(h.navigations).toEqual([
      '/pages/login/login?autoLogin=1&redirect=%2Fpages%2Fuser%2Fuser',
    ])
  })

  it('when the retried call is refused again, the 401 rule applies once, no second refresh', async () => {
    const { h, refresh } = harness()
    h.reply(UNAUTHORIZED, UNAUTHORIZED)
    const result = capture(h.http.get('/a'))
    await jest.advanceTimersByTimeAsync(100)
    expect(((await result).error as HttpError).statusCode).toBe(401)
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(h.sent).toHaveLength(2)
    expect(h.toasts()).toEqual(['请重新登录！'])
  })

  it('without a refresh token, or for calls that opt out, the 401 rule applies at once', async () => {
    const { h, refresh } = harness()
    h.setRefreshToken(null)
    h.reply(UNAUTHORIZED)
    await capture(h.http.get('/a'))
    expect(refresh).not.toHaveBeenCalled()
    expect(h.toasts()).toEqual(['请重新登录！'])

    const second = harness()
    second.h.reply(UNAUTHORIZED)
    await capture(second.h.http.get('/a', undefined, { refreshOn401: false }))
    expect(second.refresh).not.toHaveBeenCalled()
    expect(second.h.toasts()).toEqual(['请重新登录！'])
  })

  it('a refresher that throws counts as a failed refresh', async () => {
    const h = createHarness(
      {},
      { token: 'old', refreshToken: 'r1', refresh: () => Promise.reject(new Error('boom')) },
    )
    h.reply(UNAUTHORIZED)
    const result = await capture(h.http.get('/a'))
    expect((result.error as HttpError).statusCode).toBe(401)
    expect(h.toasts()).toEqual(['请重新登录！'])
  })
})

describe('another tab refreshed first (issue 6 retest, point 1)', () => {
  /**
   * Two tabs hold the same session; the other tab spent the refresh token r1 and stored its new
   * session ('other', r2) in the storage both tabs share; this tab still holds 'old'/r1 in memory.
   */
  function twoTabs(answer: 'raced' | false, storedAfterMs: number) {
    const storage = { token: 'old', refreshToken: 'r1' }
    const refresh = jest.fn(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
      return answer
    })
    const reload = jest.fn(() => {
      h.setToken(storage.token)
      h.setRefreshToken(storage.refreshToken)
    })
    const h = createHarness({}, { token: 'old', refreshToken: 'r1', refresh, reload })
    setTimeout(() => {
      storage.token = 'other'
      storage.refreshToken = 'r2'
    }, storedAfterMs)
    return { h, refresh, reload }
  }

  it('adopts the session the other tab stored and sends the call again: no sign-out', async () => {
    const { h, refresh } = twoTabs('raced', 10)
    h.reply(UNAUTHORIZED, ok({ code: 200, message: 'ok', data: [1], error: null }))
    const result = capture(h.http.get('/reports'))
    await jest.advanceTimersByTimeAsync(100)
    expect((await result).error).toBeUndefined()
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(h.sent.map((s) => s.header.Authorization)).toEqual(['Bearer old', 'Bearer other'])
    expect(h.token()).toBe('other')
    await jest.advanceTimersByTimeAsync(3000)
    expect(h.toasts()).toEqual([])
    expect(h.navigations).toEqual([])
  })

  it('waits a moment for the winning tab to store its answer when the server says it raced', async () => {
    // The loser's 401 arrives before the winner's 200 has been stored.
    const { h, reload } = twoTabs('raced', 500)
    h.reply(UNAUTHORIZED, ok({ code: 200, message: 'ok', data: [1], error: null }))
    const result = capture(h.http.get('/reports'))
    await jest.advanceTimersByTimeAsync(2000)
    expect((await result).error).toBeUndefined()
    expect(reload).toHaveBeenCalledTimes(2)
    expect(h.sent.map((s) => s.header.Authorization)).toEqual(['Bearer old', 'Bearer other'])
    expect(h.toasts()).toEqual([])
  })

  it('signs out as before when nothing newer is stored (the session really ended)', async () => {
    const { h, reload } = twoTabs(false, 60_000)
    h.reply(UNAUTHORIZED)
    const result = capture(h.http.get('/reports'))
    await jest.advanceTimersByTimeAsync(100)
    expect(((await result).error as HttpError).statusCode).toBe(401)
    expect(reload).toHaveBeenCalledTimes(1)
    expect(h.sent).toHaveLength(1)
    expect(h.toasts()).toEqual(['请重新登录！'])
  })

  it('retries once only: the adopted session refused too applies the 401 rule', async () => {
    const { h, refresh } = twoTabs('raced', 10)
    h.reply(UNAUTHORIZED, UNAUTHORIZED)
    const result = capture(h.http.get('/reports'))
    await jest.advanceTimersByTimeAsync(100)
    expect(((await result).error as HttpError).statusCode).toBe(401)
    expect(refresh).toHaveBeenCalledTimes(1)
    expect(h.sent).toHaveLength(2)
    expect(h.toasts()).toEqual(['请重新登录！'])
  })
})

describe('quiet on network failure', () => {
  it('rejects with the NetworkError but shows no toast when the call asks for quiet', async () => {
    const h = createHarness()
    h.reply({ errMsg: 'request:fail net::ERR_INTERNET_DISCONNECTED' })
    const result = await capture(h.http.post('/logout', {}, { quietOffline: true }))
    expect(result.error).toBeInstanceOf(NetworkError)
    expect(h.toasts()).toEqual([])
  })

  it('stays quiet on a timeout too, but still reports server answers', async () => {
    const h = createHarness()
    h.reply(
      { errMsg: 'request:fail timeout' },
      ok({ code: 500, message: '服务器开小差了', data: null, error: null }, 500),
    )
    await capture(h.http.get('/a', undefined, { quietOffline: true }))
    await capture(h.http.get('/b', undefined, { quietOffline: true }))
    expect(h.toasts()).toEqual(['服务器开小差了'])
  })
})

describe('timeouts on H5', () => {
  it('an aborted fetch (how Taro’s H5 request times out) is reported as a timeout', async () => {
    const h = createHarness()
    const abort = Object.assign(new Error('The user aborted a request.'), {
      name: 'AbortError',
      errMsg: 'The user aborted a request.',
    })
    h.reply(abort)
    const result = await capture(h.http.get('/a'))
    expect((result.error as NetworkError).timedOut).toBe(true)
    expect(h.toasts()).toEqual(['网络请求超时，请检查网络后重试'])
  })

  it.each([
    ['weapp', { errMsg: 'request:fail timeout' }, 'request:fail timeout', true],
    ['Chrome abort', { name: 'AbortError' }, 'The user aborted a request.', true],
    ['Firefox/Safari abort', {}, 'The operation was aborted. ', true],
    ['Chrome reason-less abort', {}, 'signal is aborted without reason', true],
    ['offline', {}, 'request:fail net::ERR_INTERNET_DISCONNECTED', false],
    ['DNS', {}, 'Failed to fetch', false],
  ])('%s', (_label, error, errMsg, expected) => {
    expect(isTimeout(error, errMsg)).toBe(expected)
  })
})

describe('SystemId', () => {
  it('sends the configured constant on every kind of call', async () => {
    const h = createHarness({ systemId: 'YX-01' })
    await h.http.get('/a')
    await h.http.upload({ url: '/u', filePath: '/tmp/x' })
    await h.http.download({ url: '/d' })
    expect(h.sent[0].header.SystemId).toBe('YX-01')
    expect(h.uploads[0].header.SystemId).toBe('YX-01')
    expect(h.downloads[0].header.SystemId).toBe('YX-01')
  })
})

describe('the app’s refresher (sign-on service, grant_type refresh_token)', () => {
  const USER = {
    id: 'u1',
    mobileMasked: '138****0001',
    nickname: '张三',
    avatarUrl: null,
    role: 'patient',
    realNameVerified: false,
    hasPassword: true,
    wechatBound: false,
    createdAt: '2026-01-01T00:00:00.000Z',
  }

  beforeEach(() => {
    resetStores()
    useSessionStore.getState().setToken({ access_token: 'old', refresh_token: 'r1' })
  })

  it('stores the new session and the call goes through with it', async () => {
    const request = jest.spyOn(Taro, 'request').mockImplementation(((options: {
      url: string
      header: Record<string, string>
    }) => {
      if (options.url.endsWith('/oauth2/token')) {
        return Promise.resolve({
          statusCode: 200,
          header: {},
          data: {
            code: 200,
            message: 'ok',
            error: null,
            data: {
              access_token: 'new',
              token_type: 'bearer',
              expires_in: 7200,
              refresh_token: 'r2',
              user: USER,
            },
          },
        })
      }
      const authorised = options.header.Authorization === 'Bearer new'
      return Promise.resolve({
        statusCode: authorised ? 200 : 401,
        header: {},
        data: { code: authorised ? 200 : 401, message: '', data: 'ok', error: null },
      })
    }) as never)
    const toast = jest.spyOn(Taro, 'showToast')
    await expect(http.get('/reports')).resolves.toMatchObject({ data: 'ok' })
    const tokenCall = request.mock.calls.find(([options]) => options.url.endsWith('/oauth2/token'))
    expect(JSON.parse(String(tokenCall?.[0].data))).toEqual({
      grant_type: 'refresh_token',
      refresh_token: 'r1',
    })
    expect(useSessionStore.getState().token).toMatchObject({
      access_token: 'new',
      refresh_token: 'r2',
    })
    expect(useAppStore.getState().profile?.nickname).toBe('张三')
    expect(toast).not.toHaveBeenCalled()
  })

  it('answers false, quietly, when the sign-on service refuses or cannot be reached', async () => {
    const toast = jest.spyOn(Taro, 'showToast')
    jest.spyOn(Taro, 'request').mockResolvedValueOnce({
      statusCode: 401,
      header: {},
      data: { code: 401, message: '', data: null, error: '刷新令牌无效' },
    } as never)
    await expect(refreshStoredSession('r1')).resolves.toBe(false)
    jest.spyOn(Taro, 'request').mockRejectedValueOnce({ errMsg: 'request:fail' })
    await expect(refreshStoredSession('r1')).resolves.toBe(false)
    expect(toast).not.toHaveBeenCalled()
    expect(useSessionStore.getState().token?.access_token).toBe('old')
  })

  it("answers 'raced' when the server says another request just exchanged the token", async () => {
    jest.spyOn(Taro, 'request').mockResolvedValueOnce({
      statusCode: 401,
      header: {},
      data: {
        code: 401,
        message: '请重新登录！',
        data: null,
        error: REFRESH_RACED_ERROR,
        reason: REASONS.refreshRaced,
      },
    } as never)
    await expect(refreshStoredSession('r1')).resolves.toBe('raced')
  })

  it("tells 'raced' by the server's reason, not by its words", async () => {
    const refused = (error: string, reason: string | null) =>
      jest.spyOn(Taro, 'request').mockResolvedValueOnce({
        statusCode: 401,
        header: {},
        data: { code: 401, message: '请重新登录！', data: null, error, reason },
      } as never)
    refused('登录状态刚刚更新过，请再试一次', REASONS.refreshRaced)
    await expect(refreshStoredSession('r1')).resolves.toBe('raced')
    refused(REFRESH_RACED_ERROR, null)
    await expect(refreshStoredSession('r1')).resolves.toBe(false)
    refused(REFRESH_RACED_ERROR, REASONS.familyNotManaged)
    await expect(refreshStoredSession('r1')).resolves.toBe(false)
  })

  it('the stored session another tab wrote is adopted instead of signing out', async () => {
    // What the other tab left in the shared storage, while this tab still holds 'old'/r1.
    const stored = { access_token: 'other', refresh_token: 'r2' }
    const request = jest.spyOn(Taro, 'request').mockImplementation(((options: {
      url: string
      header: Record<string, string>
    }) => {
      if (options.url.endsWith('/oauth2/token')) {
        Taro.setStorageSync(
          SESSION_STORAGE_KEY,
          JSON.stringify({ state: { token: stored }, version: 1 }),
        )
        return Promise.resolve({
          statusCode: 401,
          header: {},
          data: {
            code: 401,
            message: '',
            data: null,
            error: REFRESH_RACED_ERROR,
            reason: REASONS.refreshRaced,
          },
        })
      }
      const authorised = options.header.Authorization === 'Bearer other'
      return Promise.resolve({
        statusCode: authorised ? 200 : 401,
        header: {},
        data: { code: authorised ? 200 : 401, message: '', data: 'ok', error: null },
      })
    }) as never)
    await expect(http.get('/reports')).resolves.toMatchObject({ data: 'ok' })
    expect(request.mock.calls.map(([options]) => options.header?.Authorization)).toEqual([
      'Bearer old',
      'Bearer old',
      'Bearer other',
    ])
    expect(useSessionStore.getState().token).toMatchObject(stored)
  })
})
