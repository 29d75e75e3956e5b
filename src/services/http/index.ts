/**
 * The request wrapper's public face: what callers imported from `services/http.ts` before it became
 * this folder. One file per part (README.md); only these names are meant for use outside it.
 */
export {
  LOADING_DELAY_MS,
  LOADING_TEXT,
  LOGIN_PATH,
  MESSAGES,
  NETWORK_TIMEOUT_MS,
  REFRESH_RACE_SETTLE_MS,
  RELOGIN_DELAY_MS,
} from './constants'
export { classifyResponse, isTimeout } from './classify'
export { createHttp } from './create-http'
export {
  HttpError,
  NetworkError,
  RequestBuildError,
  RequestCancelledError,
  errorReason,
  isCancelled,
  reasonOf,
  type HttpErrorKind,
} from './errors'
export { http, refreshStoredSession } from './instance'
export { appendQuery, encodeQuery, isAbsoluteUrl, joinUrl } from './query'
export { taroTransport } from './taro-transport'
export type {
  BodyEncoding,
  DownloadOptions,
  DownloadedFile,
  Http,
  HttpConfig,
  HttpDeps,
  HttpHooks,
  HttpMethod,
  HttpNavigation,
  HttpResponse,
  HttpSession,
  HttpTimers,
  HttpUi,
  PreparedRequest,
  RefreshResult,
  RequestHook,
  RequestKind,
  RequestOptions,
  ResponseHook,
  Transport,
  TransportDownload,
  TransportRequest,
  TransportUpload,
  UploadOptions,
} from './types'
