/** The wrapper's vocabulary: what a transport, a caller and a hook see. */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type BodyEncoding = 'json' | 'form'
export type RequestKind = 'request' | 'upload' | 'download'

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

export interface CommonOptions {
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
