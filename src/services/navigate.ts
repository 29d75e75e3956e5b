import Taro from '@tarojs/taro'
import { findRoute, routeByName, type RouteDef, type RouteName, type TabRouteName } from '@/routes'

/**
 * Typed navigation built from routes.ts: pages are opened by name (`navigate('login', { autoLogin: 1 })`),
 * so no page, feature or service writes a path, and a route's query parameters are typed where the
 * page reads them. The only other module that spells paths is routes.ts (lint-enforced).
 */

type QueryValue = string | number | boolean | undefined
/** Query of a page whose parameters are not declared yet (the later issues' pages). */
export type LooseParams = Record<string, QueryValue>

/** A record to consult about, chosen before the expert (影像详情 / 报告详情 → 咨询专家). */
export interface ConsultRecordParams {
  examId?: string
  reportId?: string
  /** Whose record it is, when a family member's (absent: the caller's own). */
  personId?: string
}

/** The query each page reads. A page listed here accepts exactly these keys. */
export interface RouteParams {
  /**
   * 专家主页: the expert's user id; a record chosen on 影像详情 / 报告详情 (咨询专家) rides along to
   * 选择会诊方式.
   */
  personalDetail: { id: string } & ConsultRecordParams
  /** 找专家, carrying a record chosen on 影像详情 / 报告详情 (咨询专家) to the expert's page. */
  expertList: ConsultRecordParams
  /** 选择会诊方式: the expert, and a record already chosen. */
  consultMode: { expertId: string } & ConsultRecordParams
  /** 会诊申请 → 检查信息 → 会诊申请信息: one draft per expert and service (图文 text, 影像 imaging). */
  consultApplication: { expertId: string; service: 'text' | 'imaging' } & ConsultRecordParams
  examine: { expertId: string; service: 'text' | 'imaging' }
  consult: { expertId: string; service: 'text' | 'imaging' }
  /** 咨询详情: the consultation's id. */
  question: { id: string }
  /**
   * 会诊报告: `consultationId` the expert writes (or reads) that consultation's opinion; `id` a signed
   * opinion; `verify` checks a PDF's verification code (no login needed).
   */
  report: { consultationId?: string; id?: string; verify?: string }
  /** 检查申请单: `consultationId` the expert writes one in that consultation; `id` reads one. */
  reportNew: { consultationId?: string; id?: string }
  /** 消息详情: one consultation's conversation (patient or expert). */
  myMessageDetail: { consultationId: string }
  /** 交易详情: one row of 交易记录 (the ledger transfer's id). */
  walletTrade: { id: string }
  /** 提现详情: one withdrawal. */
  withdrawal: { id: string }
  /** 运营后台, on one of its tabs (operator-home.tsx TABS; default 文章). */
  operator: { tab?: string }
  /** No id: a new article. */
  operatorArticle: { id?: string }
  /** One expert certification application, by its id (运营后台 → 专家认证). */
  operatorExpertApplication: { id: string }
  /** GCJ-02 coordinates when known; without them the map searches name and address. */
  openLocation: { name: string; address?: string; lat?: number; lng?: number }
  /** What to start from (an address already typed). */
  chooseLocation: { name?: string; address?: string }
  /** `autoLogin=1` after an expired session (SPEC section 2); `redirect` is where to come back to. */
  login: { autoLogin?: 1; redirect?: string }
  loginIos: { autoLogin?: 1; redirect?: string }
  register: { redirect?: string }
  registerInfo: { redirect?: string }
  password: { mode?: 'forgot' }
  scanLogin: { id: string }
  /** 院内报告: the hospital and room of a scanned room code (a terminal's code may name no room). */
  reportIn: { hospitalId: string; roomId?: string }
  privacyPolicy: { consent?: 1; version?: string; blocked?: 'proxy' | 'refused' }
  /**
   * `frame` is 1-based; `t` is Date.now() at the tap, for the viewer-first-pixels timing. What the
   * opener already has lets the viewer start before the exam answers: `studyUid` (metadata fetched
   * at once) and `thumb`, the series' thumbnail path the opener shows (painted as the first preview).
   */
  imageViewer: {
    examId: string
    seriesUid?: string
    sop?: string
    frame?: number
    t?: number
    studyUid?: string
    thumb?: string
    /** Through a grant (issue 9): the exam from getSharedExam, frames with its share token. */
    grantId?: string
    /** Pin mode (issue 23): the opinion sentence (template field id) 附到意见 attaches to. */
    pin?: string
    /** Show mode (issue 23): one measurement drawn on the slice (features/viewer/pin.ts). */
    measure?: string
  }
}

/** Tab pages take no query (Taro's switchTab drops it); declared pages take theirs; others any. */
export type ParamArgs<N extends RouteName> = N extends TabRouteName
  ? []
  : N extends keyof RouteParams
    ? object extends RouteParams[N]
      ? [params?: RouteParams[N]]
      : [params: RouteParams[N]]
    : [params?: LooseParams]

/** WeChat keeps at most 10 pages on the stack; navigateTo fails past that. */
const MAX_STACK = 10

function queryOf(params: object | undefined): string {
  if (!params) return ''
  return Object.entries(params)
    .filter((entry): entry is [string, string | number | boolean] => entry[1] !== undefined)
    .map(([key, value]) => `${encodeURIComponent(key)}=${encodeURIComponent(String(value))}`)
    .join('&')
}

function urlOf(route: RouteDef, params?: object): string {
  const query = queryOf(params)
  return `/${route.path}${query ? `?${query}` : ''}`
}

/** The URL of a page, `/pages/login/login?autoLogin=1`: for `redirect` parameters and links. */
export function routeUrl<N extends RouteName>(name: N, ...[params]: ParamArgs<N>): string {
  return urlOf(routeByName(name), params)
}

async function attempt(open: () => Promise<unknown>): Promise<boolean> {
  try {
    await open()
    return true
  } catch {
    // Taro rejects when the page cannot open (already there, stack full, tab by navigateTo); the
    // person can tap again, so callers only learn whether it worked.
    return false
  }
}

function stackDepth(): number {
  try {
    return Taro.getCurrentPages().length
  } catch {
    // H5 before the router has mounted a page (start-up, component tests): no stack yet.
    return 0
  }
}

/**
 * Opens a page on top of the current one (a tab page: switches to it). Past WeChat's ten-page stack
 * it replaces the current page instead of failing. Answers whether the page opened.
 */
export function navigate<N extends RouteName>(
  name: N,
  ...[params]: ParamArgs<N>
): Promise<boolean> {
  const route = routeByName(name)
  if (route.tab !== undefined) return attempt(() => Taro.switchTab({ url: urlOf(route) }))
  const url = urlOf(route, params)
  if (stackDepth() >= MAX_STACK) return attempt(() => Taro.redirectTo({ url }))
  return attempt(() => Taro.navigateTo({ url }))
}

/** Replaces the current page (a form that is finished, a page that sends on). */
export function redirect<N extends Exclude<RouteName, TabRouteName>>(
  name: N,
  ...[params]: ParamArgs<N>
): Promise<boolean> {
  return attempt(() => Taro.redirectTo({ url: urlOf(routeByName(name), params) }))
}

/** Closes every page and opens this one (login after 401, the consent page at launch). */
export function relaunch<N extends RouteName>(
  name: N,
  ...[params]: ParamArgs<N>
): Promise<boolean> {
  return attempt(() => Taro.reLaunch({ url: urlOf(routeByName(name), params) }))
}

/** Opens one of the two bottom-bar pages. */
export function switchTab(name: TabRouteName): Promise<boolean> {
  return attempt(() => Taro.switchTab({ url: urlOf(routeByName(name)) }))
}

/**
 * Back one page, or to the `fallback` tab when this page was opened first (a shared link, a QR code,
 * a reload on H5), so the person is never left on a page with nowhere to go.
 */
export async function back(fallback: TabRouteName = 'main'): Promise<boolean> {
  if (stackDepth() > 1 && (await attempt(() => Taro.navigateBack()))) return true
  return switchTab(fallback)
}

/**
 * Opens a page URL that was kept earlier (a `redirect` parameter): only our own routes; a tab page by
 * switchTab (without its query). Answers false, opening nothing, for anything else.
 */
export function openUrl(url: string, how: 'navigate' | 'redirect' = 'navigate'): Promise<boolean> {
  const route = url.startsWith('/') && !url.startsWith('//') ? findRoute(url) : undefined
  if (!route) return Promise.resolve(false)
  if (route.tab !== undefined) return attempt(() => Taro.switchTab({ url: urlOf(route) }))
  if (how === 'redirect') return attempt(() => Taro.redirectTo({ url }))
  return attempt(() => Taro.navigateTo({ url }))
}
