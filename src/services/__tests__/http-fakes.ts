import {
  createHttp,
  type DownloadedFile,
  type HttpConfig,
  type HttpResponse,
  type RefreshResult,
  type Transport,
  type TransportDownload,
  type TransportRequest,
  type TransportUpload,
} from '../http'

type Reply = HttpResponse | Error | { errMsg: string }

/**
 * A transport that records what was sent and answers from a queue (default: 200 with an empty
 * envelope). `hold()` makes the next call wait until `release()`, for overlap and timing tests.
 */
export function createFakeTransport() {
  const sent: TransportRequest[] = []
  const uploads: TransportUpload[] = []
  const downloads: TransportDownload[] = []
  const replies: Reply[] = []
  const held: Array<() => void> = []
  let holdNext = 0

  async function answer(): Promise<HttpResponse> {
    if (holdNext > 0) {
      holdNext -= 1
      await new Promise<void>((resolve) => held.push(resolve))
    }
    const reply = replies.shift() ?? ok({ code: 200, message: 'ok', data: null, error: null })
    if (reply instanceof Error || !('statusCode' in reply)) throw reply
    return reply
  }

  const transport: Transport = {
    request: (options) => {
      sent.push(options)
      return answer()
    },
    upload: (options) => {
      uploads.push(options)
      return answer()
    },
    download: async (options) => {
      downloads.push(options)
      return (await answer()) as HttpResponse<DownloadedFile>
    },
  }

  return {
    transport,
    sent,
    uploads,
    downloads,
    reply: (...next: Reply[]) => {
      replies.push(...next)
    },
    hold: (count = 1) => {
      holdNext += count
    },
    release: () => {
      held.shift()?.()
    },
  }
}

export function ok(data: unknown, statusCode = 200): HttpResponse {
  return { statusCode, data, header: {} }
}

export function envelopeBody(data: unknown) {
  return { code: 200, message: 'ok', data, error: null }
}

/** What a user would see, in order: loading shown and hidden, toasts, pages opened. */
export function createFakeUi() {
  const events: string[] = []
  let loadingVisible = false
  return {
    events,
    toasts: () => events.filter((e) => e.startsWith('toast:')).map((e) => e.slice(6)),
    isLoadingVisible: () => loadingVisible,
    ui: {
      showLoading: (title: string) => {
        loadingVisible = true
        events.push(`showLoading:${title}`)
      },
      hideLoading: () => {
        loadingVisible = false
        events.push('hideLoading')
      },
      toast: (title: string) => {
        events.push(`toast:${title}`)
      },
    },
  }
}

export interface HarnessOptions {
  token?: string | null
  refreshToken?: string | null
  /** The session refresh; default none (no silent refresh). */
  refresh?: (refreshToken: string) => Promise<RefreshResult>
  /** Re-reads the stored session (another tab's refresh); default none. */
  reload?: () => void | Promise<void>
}

export function createHarness(config: HttpConfig = {}, options: HarnessOptions = {}) {
  const transport = createFakeTransport()
  const ui = createFakeUi()
  let token: string | null = options.token ?? null
  let refreshToken: string | null = options.refreshToken ?? null
  let currentUrl = '/pages/user/user'
  const navigations: string[] = []
  const http = createHttp(
    {
      transport: transport.transport,
      ui: ui.ui,
      session: {
        getAccessToken: () => token,
        clearToken: () => {
          token = null
          refreshToken = null
        },
        getRefreshToken: () => refreshToken,
        ...(options.refresh ? { refresh: options.refresh } : {}),
        ...(options.reload ? { reload: options.reload } : {}),
      },
      navigation: {
        reLaunch: (url) => {
          navigations.push(url)
        },
        currentUrl: () => currentUrl,
      },
    },
    config,
  )
  return {
    http,
    ...transport,
    ...ui,
    navigations,
    token: () => token,
    setToken: (value: string | null) => {
      token = value
    },
    setRefreshToken: (value: string | null) => {
      refreshToken = value
    },
    setCurrentUrl: (url: string) => {
      currentUrl = url
    },
  }
}

/** Settles a promise that is expected to reject, so fake timers can run while it is pending. */
export function capture<T>(promise: Promise<T>): Promise<{ value?: T; error?: unknown }> {
  return promise.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  )
}
