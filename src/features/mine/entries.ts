import type { Role } from '@contract/sso/auth'
import { currentPlatform } from '@/platform/runtime'
import { routeByName, type RouteName } from '@/routes'
import type { ExpertState } from './expert-state'

/** The Mine page's menu, grouped as a Chinese medical app shows it. Every entry opens a spec route. */
export interface MineEntry {
  key: string
  text: string
  route: RouteName
  /** Entries that only make sense once signed in go to login first. */
  needsLogin: boolean
  /** Shown only to this role (the role-right tree decides when it is loaded). */
  role?: Role
  /** Only in the H5 app (the operators' pages are not in the mini-program). */
  h5Only?: boolean
  /** Opens the page with the person's own user id as `id` (我的主页: their public profile). */
  withOwnId?: boolean
}

export const EXPERT_ENTRY_KEY = 'expert'
/** Shows the unread count (countUnreadMessages) on its right. */
export const MESSAGES_ENTRY_KEY = 'messages'

export const MINE_GROUPS: readonly (readonly MineEntry[])[] = [
  [
    // The hospitals' reports and images first; 我的上传 is the person's own studies (index-ys, whose
    // spec title 我的报告 is kept on the page only).
    { key: 'reports', text: '个人报告', route: 'personalReport', needsLogin: true },
    { key: 'images', text: '我的影像', route: 'myImages', needsLogin: true },
    { key: 'uploads', text: '我的上传', route: 'myReports', needsLogin: true },
    {
      key: 'grants',
      text: '授权记录',
      route: 'grantList',
      needsLogin: true,
    },
    { key: 'family', text: '亲情卡', route: 'familyCard', needsLogin: true },
    {
      key: 'questions',
      text: '我的咨询',
      route: 'questionList',
      needsLogin: true,
    },
    {
      key: 'favourites',
      text: '我的收藏',
      route: 'collectList',
      needsLogin: true,
    },
    { key: MESSAGES_ENTRY_KEY, text: '我的消息', route: 'messages', needsLogin: true },
  ],
  [
    {
      key: 'patientQuestions',
      text: '患者咨询',
      route: 'patientQuestions',
      needsLogin: true,
      role: 'expert',
    },
    {
      key: 'wallet',
      text: '我的钱包',
      route: 'myWallet',
      needsLogin: true,
      role: 'expert',
    },
    {
      key: 'expertProfile',
      text: '我的主页',
      route: 'personalDetail',
      needsLogin: true,
      role: 'expert',
      withOwnId: true,
    },
    {
      key: 'expertServices',
      text: '服务设置',
      route: 'expertServices',
      needsLogin: true,
      role: 'expert',
    },
    {
      key: EXPERT_ENTRY_KEY,
      text: '专家认证',
      route: 'expertPerfect',
      needsLogin: true,
    },
  ],
  [
    {
      key: 'operator',
      text: '运营后台',
      route: 'operator',
      needsLogin: true,
      role: 'operator',
      h5Only: true,
    },
    { key: 'feedback', text: '意见反馈', route: 'feedback', needsLogin: false },
    { key: 'setup', text: '设置', route: 'settings', needsLogin: false },
    { key: 'about', text: '关于我们', route: 'about', needsLogin: false },
  ],
]

/**
 * The groups one person sees. A role-only entry shows when the role-right tree lists its page, or,
 * before the tree has loaded (or when signed out), when the person's role matches.
 */
export function visibleGroups(role: Role, allowedPaths: ReadonlySet<string> | null): MineEntry[][] {
  return MINE_GROUPS.map((group) =>
    group.filter((entry) => {
      if (entry.h5Only && currentPlatform() !== 'h5') return false
      if (!entry.role) return true
      if (allowedPaths) return allowedPaths.has(routeByName(entry.route).path)
      return entry.role === role
    }),
  ).filter((group) => group.length > 0)
}

/**
 * What 专家认证 says: its title, and on its right where my application stands (草稿, 待审核, 已认证,
 * 已驳回), from the application itself (getMyExpertApplication), never guessed from the role.
 * Without an application (or after a withdrawn one) it invites the person to apply; `undefined`
 * (not loaded yet, signed out) says no state at all.
 */
export function expertEntryText(application: ExpertState | null | undefined): {
  title: string
  state: string
} {
  if (application === undefined) return { title: '专家认证', state: '' }
  if (application === null || application.status === 'withdrawn') {
    return { title: '申请成为专家', state: '' }
  }
  return { title: '专家认证', state: application.statusLabel }
}
