import { withQuery } from '@/platform/navigation'
import { errMsgOf, isTimeout, classifyResponse, type Outcome } from './classify'
import {
  LOADING_DELAY_MS,
  LOGIN_PATH,
  MESSAGES,
  NETWORK_TIMEOUT_MS,
  REFRESH_RACE_SETTLE_MS,
  RELOGIN_DELAY_MS,
} from './constants'
import {
  HttpError,
  NetworkError,
  RequestBuildError,
  RequestCancelledError,
  isCancelled,
} from './errors'
import { createLoadingTracker } from './loading'
import { appendQuery, encodeQuery, joinUrl, parseUploadBody, serialiseBody } from './query'
import type {
  BodyEncoding,
  CommonOptions,
  DownloadOptions,
  DownloadedFile,
  Http,
  HttpDeps,
  HttpConfig,
  HttpHooks,
  HttpMethod,
  HttpResponse,
  HttpTimers,
  PreparedRequest,
  RefreshResult,
  RequestKind,
  RequestOptions,
  TransportRequest,
  UploadOptions,
} from './types'

/**
 * The one wrapper over Taro.request, Taro.uploadFile and Taro.downloadFile (SPEC sections 7 and 8).
 * Everything it touches comes in through `HttpDeps`, so tests drive it with a fake transport, fake UI
 * and fake timers; `instance.ts` wires the app's instance to Taro and the session store.
 */

const CONTENT_TYPES: Record<BodyEncoding, string> = {
  json: 'application/json;charset=UTF-8',
  form: 'application/x-www-form-urlencoded;charset=UTF-8',
}

const realTimers: HttpTimers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
}

export function createHttp(deps: HttpDeps, config: HttpConfig = {}): Http {
  const timers = deps.timers ?? realTimers
  const loadingDelay = config.loadingDelayMs ?? LOADING_DELAY_MS
  const reloginDelay = config.reloginDelayMs ?? RELOGIN_DELAY_MS
  const defaultTimeout = config.timeoutMs ?? NETWORK_TIMEOUT_MS
  const loginPath = config.loginPath ?? LOGIN_PATH
  const loading = createLoadingTracker(deps.ui, timers, loadingDelay)
  let instanceHooks: HttpHooks = config.hooks ?? {}
  let reloginScheduled = false
  /** The refresh in flight: parallel 401s share it, so a refresh token is spent once. */
  let refreshing: Promise<RefreshResult> | null = null

  /**
   * After a 401 of a call sent with `sentToken`: whether the call is worth sending again. Yes when
   * another call already renewed the session meanwhile; otherwise one refresh (single-flight).
   */
  async function renewSession(sentToken: string | null): Promise<boolean> {
    if (sentToken === null) return false
    const current = deps.session.getAccessToken()
    if (current !== null && current !== sentToken) return true
    const refreshToken = deps.session.getRefreshToken?.() ?? null
    const refresh = deps.session.refresh
    if (refreshToken === null || refreshToken === '' || !refresh) return false
    if (!refreshing) {
      refreshing = refresh(refreshToken)
        .catch((): RefreshResult => false)
        .finally(() => {
          refreshing = null
        })
    }
    const result = await refreshing
    if (result === true) return true
    return adoptStoredSession(sentToken, result === 'raced')
  }

  /**
   * After a failed refresh: another tab may have refreshed first (one refresh token works once,
   * so this tab's copy was spent), and stored the new session where every tab reads it. Adopt it
   * rather than sign the user out, which would also wipe the stored session under the other tab.
   * When the server said so ('raced'), the other tab's answer may still be on its way: look again
   * a moment later.
   */
  async function adoptStoredSession(sentToken: string, raced: boolean): Promise<boolean> {
    const reload = deps.session.reload
    if (!reload) return false
    const renewed = async (): Promise<boolean> => {
      await Promise.resolve(reload()).catch(() => undefined)
      const current = deps.session.getAccessToken()
      return current !== null && current !== sentToken
    }
    if (await renewed()) return true
    if (!raced) return false
    await new Promise<void>((resolve) => timers.setTimeout(resolve, REFRESH_RACE_SETTLE_MS))
    return renewed()
  }

  /**
   * 401: the token goes at once; toast and navigation happen once however many calls fail together,
   * and the flag resets after navigating so a later expiry is handled again.
   */
  function handleUnauthorized(): void {
    deps.session.clearToken()
    if (reloginScheduled) return
    reloginScheduled = true
    deps.ui.toast(MESSAGES.relogin)
    timers.setTimeout(() => {
      reloginScheduled = false
      const current = deps.navigation.currentUrl()
      // Already on login (its own call was refused): navigating again would wipe what was typed.
      if (current.split('?')[0] === loginPath) return
      const query = withQuery(loginPath, { autoLogin: '1', redirect: current || undefined })
      void Promise.resolve(deps.navigation.reLaunch(query)).catch(() => undefined)
    }, reloginDelay)
  }

  type AnyOptions = CommonOptions & Partial<RequestOptions> & Partial<UploadOptions>

  function prepare(kind: RequestKind, options: AnyOptions): PreparedRequest {
    const method: HttpMethod = kind === 'download' ? 'GET' : (options.method ?? 'POST')
    const encoding: BodyEncoding = options.encoding ?? 'json'
    // A fresh object every call: per-call headers must never leak into later calls.
    const header: Record<string, string> = {}
    if (kind !== 'upload') header['Content-Type'] = CONTENT_TYPES[encoding]
    header.SystemId = options.systemId ?? config.systemId ?? ''
    header.Codetype = config.codeType ?? ''
    if (options.regType !== undefined) header.RegType = options.regType
    const token = deps.session.getAccessToken()
    if (token) header[options.authHeader ?? 'Authorization'] = `Bearer ${token}`
    Object.assign(header, options.header)
    const prepared: PreparedRequest = {
      kind,
      url: joinUrl(options.baseUrl ?? config.baseUrl ?? '', options.url),
      method,
      header,
      data: options.data,
      encoding,
      timeout: options.timeout ?? defaultTimeout,
    }
    if (options.filePath !== undefined) prepared.filePath = options.filePath
    if (kind === 'upload') prepared.name = options.name ?? 'file'
    if (options.formData !== undefined) {
      const fields: Record<string, string> = {}
      for (const [key, value] of Object.entries(options.formData)) fields[key] = String(value)
      prepared.formData = fields
    }
    return prepared
  }

  async function runRequestHooks(
    prepared: PreparedRequest,
    callHooks: HttpHooks | undefined,
  ): Promise<PreparedRequest> {
    let current = prepared
    for (const hook of [instanceHooks.request, callHooks?.request]) {
      if (!hook) continue
      const result = await hook(current)
      if (result === false) throw new RequestCancelledError()
      if (result) current = result
    }
    return current
  }

  async function runResponseHooks(
    response: HttpResponse,
    prepared: PreparedRequest,
    callHooks: HttpHooks | undefined,
  ): Promise<HttpResponse | false> {
    let current = response
    for (const hook of [instanceHooks.response, callHooks?.response]) {
      if (!hook) continue
      const result = await hook(current, prepared)
      if (result === false) return false
      if (result) current = result
    }
    return current
  }

  /**
   * The one pipeline for all three kinds: build (hooks + serialise), send, judge, then, with the
   * loading already hidden (WeChat's hideLoading would also close a toast shown before it), toast
   * and settle.
   */
  async function execute(
    kind: RequestKind,
    options: AnyOptions,
    send: (prepared: PreparedRequest) => Promise<HttpResponse>,
  ): Promise<HttpResponse> {
    const ticket = loading.begin(options.loading !== false)
    let outcome: Outcome
    try {
      const sentToken = deps.session.getAccessToken()
      outcome = await attempt(kind, options, send)
      // An expired access token is renewed silently once, and the call sent once more; only if
      // that fails too does the 401 rule apply (issue 6, point 2).
      if (
        !outcome.ok &&
        outcome.unauthorized &&
        options.refreshOn401 !== false &&
        (await renewSession(sentToken))
      ) {
        outcome = await attempt(kind, options, send)
      }
    } finally {
      loading.end(ticket)
    }
    if (outcome.ok) return outcome.response
    if (outcome.unauthorized) handleUnauthorized()
    else if (outcome.offline && options.quietOffline) throw outcome.error
    else if (outcome.toast !== undefined) deps.ui.toast(outcome.toast)
    throw outcome.error
  }

  async function attempt(
    kind: RequestKind,
    options: AnyOptions,
    send: (prepared: PreparedRequest) => Promise<HttpResponse>,
  ): Promise<Outcome> {
    let prepared: PreparedRequest
    try {
      prepared = await runRequestHooks(prepare(kind, options), options.hooks)
    } catch (error) {
      // Cancelled: silent, no toast. Anything else thrown while building: 服务端异常.
      if (isCancelled(error)) return { ok: false, error }
      return { ok: false, error: new RequestBuildError(error), toast: MESSAGES.buildFailed }
    }
    let response: HttpResponse
    try {
      response = await send(prepared)
    } catch (error) {
      if (error instanceof RequestBuildError) {
        return { ok: false, error, toast: MESSAGES.buildFailed }
      }
      // SPEC 8 only says "rejected"; a Chinese user expects to be told the network is the problem,
      // and a silent failure looks like a frozen page, so the call is rejected with a toast.
      const errMsg = errMsgOf(error)
      const timedOut = isTimeout(error, errMsg)
      return {
        ok: false,
        error: new NetworkError(errMsg, timedOut),
        toast: timedOut ? MESSAGES.timeout : MESSAGES.network,
        offline: true,
      }
    }
    if (kind === 'upload') response = { ...response, data: parseUploadBody(response.data) }
    const hooked = await runResponseHooks(response, prepared, options.hooks).catch(
      (): false => false,
    )
    if (hooked === false) return { ok: false, error: new HttpError(response, 'response-hook') }
    return classifyResponse(hooked)
  }

  /** Serialisation errors are build errors, not network errors. */
  function build<T>(fn: () => T): T {
    try {
      return fn()
    } catch (error) {
      throw new RequestBuildError(error)
    }
  }

  async function request<T>(options: RequestOptions): Promise<T> {
    const response = await execute('request', options, (prepared) => {
      const inQuery = prepared.method === 'GET' || prepared.method === 'DELETE'
      const { url, data } = build(() =>
        inQuery
          ? { url: appendQuery(prepared.url, encodeQuery(prepared.data)), data: undefined }
          : { url: prepared.url, data: serialiseBody(prepared.data, prepared.encoding) },
      )
      const transportOptions: TransportRequest = {
        url,
        method: prepared.method,
        header: prepared.header,
        timeout: prepared.timeout,
      }
      if (data !== undefined) transportOptions.data = data
      if (options.responseType) transportOptions.responseType = options.responseType
      return deps.transport.request(transportOptions)
    })
    return (options.fullResponse ? response : response.data) as T
  }

  async function upload<T>(options: UploadOptions): Promise<T> {
    const response = await execute('upload', options, (prepared) =>
      deps.transport.upload({
        url: prepared.url,
        header: prepared.header,
        filePath: prepared.filePath ?? options.filePath,
        name: prepared.name ?? 'file',
        timeout: prepared.timeout,
        ...(prepared.formData ? { formData: prepared.formData } : {}),
      }),
    )
    return (options.fullResponse ? response : response.data) as T
  }

  async function download(options: DownloadOptions): Promise<DownloadedFile> {
    const response = await execute('download', options, (prepared) =>
      deps.transport.download({
        url: prepared.url,
        header: prepared.header,
        timeout: prepared.timeout,
        ...(prepared.filePath ? { filePath: prepared.filePath } : {}),
      }),
    )
    return response.data as DownloadedFile
  }

  const shortcut =
    (method: HttpMethod) =>
    <T>(url: string, data?: unknown, options: Partial<RequestOptions> = {}) =>
      request<T>({ ...options, url, data, method })

  return {
    request,
    get: shortcut('GET'),
    post: shortcut('POST'),
    put: shortcut('PUT'),
    delete: shortcut('DELETE'),
    upload,
    download,
    setHooks: (hooks) => {
      instanceHooks = hooks
    },
  }
}
