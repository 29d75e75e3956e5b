import Taro from '@tarojs/taro'
import { envelope } from '@contract/envelope'
import { issueToken, REFRESH_RACED_ERROR } from '@contract/sso/auth'
import { taroNavigator, withQuery } from '@/platform/navigation'
import { currentPlatform } from '@/platform/runtime'
import { hideLoading, showLoading, showToast } from '@/platform/ui'
import { useAppStore } from '@/stores/app-store'
import { getAccessToken, useSessionStore } from '@/stores/session-store'
import { hostOf, systemId } from './hosts'
import { routeUrl } from './navigate'
import './zod-setup'

/**
 * The one wrapper over Taro.request, Taro.uploadFile and Taro.downloadFile (SPEC sections 7 and 8).
 * Everything it touches comes in through `HttpDeps`, so tests drive it with a fake transport, fake UI
 * and fake timers; `http` at the bottom is the instance wired to Taro and the session store.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type BodyEncoding = 'json' | 'form'
export type RequestKind = 'request' | 'upload' | 'download'

export const LOADING_TEXT = '请求中...'
export const LOADING_DELAY_MS = 800
export const RELOGIN_DELAY_MS = 1500
export const NETWORK_TIMEOUT_MS = 60000
/**
 * How long to wait for the request that won a refresh race (another tab) to store its new session
 * before giving up: the loser's 401 can arrive before the winner's 200 has been stored.
 */
export const REFRESH_RACE_SETTLE_MS = 1000
export const LOGIN_PATH = routeUrl('login')

export const MESSAGES = {
  relogin: '请重新登录！',
  buildFailed: '服务端异常',
  serverError: '服务端异常',
  network: '网络异常，请检查网络后重试',
  timeout: '网络请求超时，请检查网络后重试',
  status: (statusCode: number) => `请求失败（${statusCode}）`,
} as const

const CONTENT_TYPES: Record<BodyEncoding, string> = {
  json: 'application/json;charset=UTF-8',
  form: 'application/x-www-form-urlencoded;charset=UTF-8',
}

export interface HttpResponse<T = unknown> {
  statusCode: number
  data: T
  header: Record<string, string>
}

export interface DownloadedFile {
  tempFilePath: string
  filePath?: string
}

export interface TransportRequest {
  url: string
  method: HttpMethod
  header: Record<string, string>
  /** Already serialised: a JSON or form-encoded string; absent for GET and DELETE. */
  data?: string
  timeout: number
  /** 'arraybuffer': the body as raw bytes (the viewer's WADO-RS frames), not parsed. */
  responseType?: 'arraybuffer'
}

export interface TransportUpload {
  url: string
  header: Record<string, string>
  filePath: string
  name: string
  formData?: Record<string, string>
  timeout: number
}

export interface TransportDownload {
  url: string
  header: Record<string, string>
  filePath?: string
  timeout: number
}

/**
 * Resolves with whatever the server answered, whatever the status; rejects only when no answer came
 * (no network, timeout, DNS, TLS), the way Taro's APIs do.
 */
export interface Transport {
  request: (options: TransportRequest) => Promise<HttpResponse>
  /** `data` is the raw response text; the wrapper parses it. */
  upload: (options: TransportUpload) => Promise<HttpResponse>
  download: (options: TransportDownload) => Promise<HttpResponse<DownloadedFile>>
}

export interface HttpUi {
  showLoading: (title: string) => void
  hideLoading: () => void
  toast: (title: string) => void
}

export interface HttpSession {
  getAccessToken: () => string | null
  clearToken: () => void
  /** The refresh token of the stored session, if any (absent: no silent refresh). */
  getRefreshToken?: () => string | null
  /**
   * Trades the refresh token for a new session and stores it; true when it worked, 'raced' when the
   * server said another request of this user (another tab, a retry) had just exchanged the same
   * token. Must not throw and must not trigger the 401 rule itself.
   */
  refresh?: (refreshToken: string) => Promise<RefreshResult>
  /**
   * Re-reads the stored session (another tab of the H5 app may have written a newer one there);
   * absent where nothing else can write it.
   */
  reload?: () => void | Promise<void>
}

export type RefreshResult = boolean | 'raced'

export interface HttpNavigation {
  reLaunch: (url: string) => void | Promise<void>
  /** The current page's URL, so login can come back to it. */
  currentUrl: () => string
}

export interface HttpTimers {
  setTimeout: (callback: () => void, ms: number) => unknown
  clearTimeout: (handle: unknown) => void
}

/** Everything a request may change in a request hook, before it is serialised. */
export interface PreparedRequest {
  kind: RequestKind
  /** Full address, base already prefixed. */
  url: string
  method: HttpMethod
  header: Record<string, string>
  data: unknown
  encoding: BodyEncoding
  timeout: number
  /** upload/download only */
  filePath?: string
  name?: string
  formData?: Record<string, string>
}

type HookResult<T> = T | false | void | undefined
/** Return a changed request to send that, false to cancel silently, nothing to send it as is. */
export type RequestHook = (
  request: PreparedRequest,
) => HookResult<PreparedRequest> | Promise<HookResult<PreparedRequest>>
/** Return a changed response to use that, false to reject the call, nothing to keep it. */
export type ResponseHook = (
  response: HttpResponse,
  request: PreparedRequest,
) => HookResult<HttpResponse> | Promise<HookResult<HttpResponse>>

export interface HttpHooks {
  request?: RequestHook
  response?: ResponseHook
}

export interface HttpConfig {
  /** Prefixed to every relative URL unless a call gives its own. */
  baseUrl?: string
  /** SystemId header: a fixed constant, blank for the systems that do not need it. */
  systemId?: string
  /** Codetype header: which client is calling. */
  codeType?: string
  hooks?: HttpHooks
  loadingDelayMs?: number
  reloginDelayMs?: number
  timeoutMs?: number
  loginPath?: string
}

export interface HttpDeps {
  transport: Transport
  ui: HttpUi
  session: HttpSession
  navigation: HttpNavigation
  timers?: HttpTimers
}

interface CommonOptions {
  url: string
  /** Per-call base address (a service host); the URL is used as is when absolute. */
  baseUrl?: string
  /** Extra headers for this call only. */
  header?: Record<string, string>
  /** RegType header, sent only when given. */
  regType?: string
  systemId?: string
  /** Header that carries `Bearer <access_token>`; default Authorization. */
  authHeader?: string
  /** false: no "请求中..." for this call (background polling). Default true. */
  loading?: boolean
  /**
   * true: when no answer comes (offline, timeout) the call rejects without a toast; the caller
   * handles it or it does not matter (signing out offline, a background refresh). Default false.
   */
  quietOffline?: boolean
  /**
   * false: a 401 applies the 401 rule at once, without first trying to refresh the session (the
   * refresh call itself). Default true.
   */
  refreshOn401?: boolean
  timeout?: number
  hooks?: HttpHooks
}

export interface RequestOptions extends CommonOptions {
  method?: HttpMethod
  data?: unknown
  /** Body encoding for POST and PUT; default json. */
  encoding?: BodyEncoding
  /** Resolve with the whole response (status, headers) instead of the body. */
  fullResponse?: boolean
  /** 'arraybuffer': the body as raw bytes on both platforms (binary answers such as frames). */
  responseType?: 'arraybuffer'
}

export interface UploadOptions extends CommonOptions {
  filePath: string
  /** The multipart field name; default 'file'. */
  name?: string
  formData?: Record<string, string | number | boolean>
  fullResponse?: boolean
}

export interface DownloadOptions extends CommonOptions {
  filePath?: string
}

/** A request hook said no. Callers usually ignore it: check with `isCancelled(error)`. */
export class RequestCancelledError extends Error {
  readonly cancelled = true
  constructor() {
    super('request cancelled by request hook')
    this.name = 'RequestCancelledError'
  }
}

export function isCancelled(error: unknown): error is RequestCancelledError {
  return error instanceof RequestCancelledError
}

export type HttpErrorReason = 'unauthorized' | 'server' | 'business' | 'status' | 'response-hook'

/** The server answered, but not with success; `response` is the full response (SPEC section 7). */
export class HttpError extends Error {
  constructor(
    readonly response: HttpResponse,
    readonly reason: HttpErrorReason,
  ) {
    super(`HTTP ${response.statusCode} (${reason})`)
    this.name = 'HttpError'
  }

  get statusCode(): number {
    return this.response.statusCode
  }
}

/** No answer came: offline, timeout, DNS or TLS failure. */
export class NetworkError extends Error {
  constructor(
    readonly errMsg: string,
    readonly timedOut: boolean,
  ) {
    super(errMsg)
    this.name = 'NetworkError'
  }
}

/** The request could not be built: a hook threw, or the data cannot be serialised. */
export class RequestBuildError extends Error {
  constructor(readonly reason: unknown) {
    super(
      `request could not be built: ${reason instanceof Error ? reason.message : String(reason)}`,
    )
    this.name = 'RequestBuildError'
  }
}

export interface Http {
  request: <T = unknown>(options: RequestOptions) => Promise<T>
  get: <T = unknown>(url: string, data?: unknown, options?: Partial<RequestOptions>) => Promise<T>
  post: <T = unknown>(url: string, data?: unknown, options?: Partial<RequestOptions>) => Promise<T>
  put: <T = unknown>(url: string, data?: unknown, options?: Partial<RequestOptions>) => Promise<T>
  delete: <T = unknown>(
    url: string,
    data?: unknown,
    options?: Partial<RequestOptions>,
  ) => Promise<T>
  upload: <T = unknown>(options: UploadOptions) => Promise<T>
  download: (options: DownloadOptions) => Promise<DownloadedFile>
  /** Replace the instance hooks (the app installs its own at start-up). */
  setHooks: (hooks: HttpHooks) => void
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

export function isAbsoluteUrl(url: string): boolean {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(url) || url.startsWith('//')
}

export function joinUrl(base: string, url: string): string {
  if (isAbsoluteUrl(url) || base === '') return url
  return `${base.replace(/\/+$/, '')}/${url.replace(/^\/+/, '')}`
}

function encodeScalar(value: unknown): string {
  if (value === null) return ''
  if (value instanceof Date) return value.toISOString()
  if (typeof value === 'object') return JSON.stringify(value)
  return String(value)
}

/**
 * `a=1&b=x%20y`: keys and values percent-encoded, undefined left out, null sent empty, arrays as
 * repeated keys, nested objects as JSON. Used for GET/DELETE query strings and form bodies.
 */
export function encodeQuery(data: unknown): string {
  if (data === undefined || data === null) return ''
  if (typeof data === 'string') return data.replace(/^\?/, '')
  if (!isRecord(data)) throw new TypeError('query data must be an object')
  const parts: string[] = []
  for (const [key, value] of Object.entries(data)) {
    if (value === undefined) continue
    const values: unknown[] = Array.isArray(value) ? value : [value]
    for (const item of values) {
      if (item === undefined) continue
      parts.push(`${encodeURIComponent(key)}=${encodeURIComponent(encodeScalar(item))}`)
    }
  }
  return parts.join('&')
}

export function appendQuery(url: string, query: string): string {
  if (query === '') return url
  const [path, hash] = url.split('#', 2)
  const joined = `${path}${path.includes('?') ? '&' : '?'}${query}`
  return hash === undefined ? joined : `${joined}#${hash}`
}

function serialiseBody(data: unknown, encoding: BodyEncoding): string | undefined {
  if (data === undefined) return undefined
  if (encoding === 'form') return encodeQuery(data)
  if (typeof data === 'string') return data
  // JSON.stringify throws on cycles and BigInt: that is an "exception while building the request".
  const text: unknown = JSON.stringify(data)
  if (typeof text !== 'string') throw new TypeError('request data cannot be serialised to JSON')
  return text
}

/** Upload responses arrive as text; a JSON envelope is parsed so the same rules apply. */
function parseUploadBody(data: unknown): unknown {
  if (typeof data !== 'string') return data
  try {
    return JSON.parse(data) as unknown
  } catch {
    return data
  }
}

interface LoadingTicket {
  timer: unknown
  done: boolean
}

/**
 * "请求中..." appears once some request has run for 800 ms and disappears when the last one ends,
 * so overlapping requests show one indicator, never flicker, and never leave it stuck.
 */
function createLoadingTracker(ui: HttpUi, timers: HttpTimers, delayMs: number) {
  let pending = 0
  let visible = false
  return {
    begin(track: boolean): LoadingTicket | null {
      if (!track) return null
      pending += 1
      const ticket: LoadingTicket = { timer: undefined, done: false }
      ticket.timer = timers.setTimeout(() => {
        ticket.timer = undefined
        if (!ticket.done && !visible) {
          visible = true
          ui.showLoading(LOADING_TEXT)
        }
      }, delayMs)
      return ticket
    },
    end(ticket: LoadingTicket | null): void {
      if (ticket === null || ticket.done) return
      ticket.done = true
      if (ticket.timer !== undefined) timers.clearTimeout(ticket.timer)
      pending -= 1
      if (pending === 0 && visible) {
        visible = false
        ui.hideLoading()
      }
    },
  }
}

/** What to do with an answer; decided without side effects, acted on after loading is hidden. */
type Outcome =
  | { ok: true; response: HttpResponse }
  | { ok: false; error: Error; toast?: string; unauthorized?: boolean; offline?: boolean }

function messageOf(body: unknown): string | null {
  if (!isRecord(body)) return null
  return typeof body.message === 'string' && body.message.trim() !== '' ? body.message : null
}

/** SPEC section 8, in order: 401, then status or code 500, then an error field, then status 200. */
export function classifyResponse(response: HttpResponse): Outcome {
  const body = response.data
  const code = isRecord(body) && typeof body.code === 'number' ? body.code : undefined
  if (response.statusCode === 401 || code === 401) {
    return {
      ok: false,
      error: new HttpError(response, 'unauthorized'),
      toast: MESSAGES.relogin,
      unauthorized: true,
    }
  }
  if (response.statusCode === 500 || code === 500) {
    return {
      ok: false,
      error: new HttpError(response, 'server'),
      toast: messageOf(body) ?? MESSAGES.serverError,
    }
  }
  if (isRecord(body) && typeof body.error === 'string' && body.error.trim() !== '') {
    return { ok: false, error: new HttpError(response, 'business'), toast: body.error }
  }
  if (response.statusCode === 200) return { ok: true, response }
  // Not in the catalogue (a gateway's 502, a bare 404): the user still deserves to know it failed.
  return {
    ok: false,
    error: new HttpError(response, 'status'),
    toast: messageOf(body) ?? MESSAGES.status(response.statusCode),
  }
}

/**
 * Whether a failed request ran out of time. The mini-program says `request:fail timeout`; Taro's H5
 * request enforces its timeout by aborting fetch, which rejects with an AbortError ("The user
 * aborted a request." / "signal is aborted without reason"). Nothing in the app aborts a request
 * otherwise, so an abort is a timeout.
 */
export function isTimeout(error: unknown, errMsg: string): boolean {
  if (/timeout|timed out|超时/i.test(errMsg)) return true
  const name = isRecord(error) || error instanceof Error ? (error as { name?: unknown }).name : ''
  return name === 'AbortError' || name === 'TimeoutError' || /\babort(ed)?\b/i.test(errMsg)
}

function errMsgOf(error: unknown): string {
  if (isRecord(error) && typeof error.errMsg === 'string') return error.errMsg
  if (error instanceof Error) return error.message
  return String(error)
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

function toHeaderRecord(header: unknown): Record<string, string> {
  const result: Record<string, string> = {}
  if (!isRecord(header)) return result
  for (const [key, value] of Object.entries(header)) {
    if (typeof value === 'string') result[key] = value
  }
  return result
}

/** Taro's APIs as a Transport: the only place in the app that calls them. */
export const taroTransport: Transport = {
  request: async (options) => {
    const response = await Taro.request<unknown>({
      url: options.url,
      method: options.method,
      header: options.header,
      timeout: options.timeout,
      // Raw bytes must not go through the JSON parse ('其他' in WeChat's terms).
      dataType: options.responseType === 'arraybuffer' ? '其他' : 'json',
      ...(options.responseType ? { responseType: options.responseType } : {}),
      ...(options.data !== undefined ? { data: options.data } : {}),
    })
    return {
      statusCode: response.statusCode,
      data: response.data,
      header: toHeaderRecord(response.header),
    }
  },
  upload: async (options) => {
    const response = await Taro.uploadFile({
      url: options.url,
      filePath: options.filePath,
      name: options.name,
      header: options.header,
      timeout: options.timeout,
      ...(options.formData ? { formData: options.formData } : {}),
    })
    return { statusCode: response.statusCode, data: response.data, header: {} }
  },
  download: async (options) => {
    const response = await Taro.downloadFile({
      url: options.url,
      header: options.header,
      timeout: options.timeout,
      ...(options.filePath ? { filePath: options.filePath } : {}),
    })
    const file: DownloadedFile = { tempFilePath: response.tempFilePath }
    if (response.filePath) file.filePath = response.filePath
    return { statusCode: response.statusCode, data: file, header: {} }
  },
}

/**
 * Trades the stored refresh token for a new session (sign-on service, grant_type refresh_token) and
 * stores it. Quiet whatever happens: no loading, no toast, no 401 rule of its own; a refused or
 * unreadable answer is just "could not refresh", and the call that asked applies the 401 rule.
 */
export async function refreshStoredSession(refreshToken: string): Promise<RefreshResult> {
  const body = await http
    .request<unknown>({
      url: issueToken.path,
      method: issueToken.method,
      baseUrl: hostOf(issueToken.service),
      data: { grant_type: 'refresh_token', refresh_token: refreshToken },
      loading: false,
      quietOffline: true,
      refreshOn401: false,
      hooks: {
        response: (response) =>
          response.statusCode === 200 && !(isRecord(response.data) && response.data.error)
            ? undefined
            : false,
      },
    })
    // A refused answer still says why (the response hook turned it into an HttpError).
    .catch((error: unknown) => (error instanceof HttpError ? error.response.data : null))
  const parsed = envelope(issueToken.output).safeParse(body)
  if (!parsed.success) {
    return isRecord(body) && body.error === REFRESH_RACED_ERROR ? 'raced' : false
  }
  const session = parsed.data.data
  useSessionStore.getState().setToken({
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: session.expires_in,
    refresh_token: session.refresh_token,
  })
  useAppStore.getState().setProfile(session.user)
  return true
}

/**
 * The app's instance. Relative URLs go to the main service unless a call names its own base
 * (services/api.ts does, per endpoint). A 401 also marks the app state signed out, so pages do not
 * keep showing a user whose token is gone.
 */
export const http = createHttp(
  {
    transport: taroTransport,
    ui: {
      showLoading: (title) => showLoading(title, true),
      hideLoading,
      toast: (title) => showToast(title),
    },
    session: {
      getAccessToken,
      getRefreshToken: () => useSessionStore.getState().token?.refresh_token ?? null,
      refresh: refreshStoredSession,
      // H5 tabs share localStorage but each keeps its own copy in memory: re-read what is stored.
      reload: async () => {
        await useSessionStore.persist.rehydrate()
        await useAppStore.persist.rehydrate()
      },
      clearToken: () => {
        useSessionStore.getState().clearToken()
        useAppStore.getState().logout()
      },
    },
    navigation: taroNavigator,
  },
  {
    baseUrl: hostOf('main'),
    systemId: systemId(),
    codeType: currentPlatform(),
  },
)
