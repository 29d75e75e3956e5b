import type { Role } from '@contract/sso/auth'

/** The Mine page's menu, grouped as a Chinese medical app shows it. Every path is a spec route. */
export interface MineEntry {
  key: string
  text: string
  path: string
  /** Entries that only make sense once signed in go to login first. */
  needsLogin: boolean
  /** Shown only to this role (the role-right tree decides when it is loaded). */
  role?: Role
}

export const EXPERT_ENTRY_KEY = 'expert'

export const MINE_GROUPS: readonly (readonly MineEntry[])[] = [
  [
    { key: 'reports', text: '我的报告', path: '/pages/personalReport/index-ys', needsLogin: true },
    { key: 'images', text: '我的影像', path: '/pages/personalImage/index', needsLogin: true },
    {
      key: 'grants',
      text: '授权记录',
      path: '/pages/personalReport/shouquan-list',
      needsLogin: true,
    },
    {
      key: 'questions',
      text: '我的咨询',
      path: '/pages/questionList/questionList',
      needsLogin: true,
    },
    {
      key: 'favourites',
      text: '我的收藏',
      path: '/pages/collectList/collectList',
      needsLogin: true,
    },
    { key: 'messages', text: '我的消息', path: '/pages/msg/list', needsLogin: true },
  ],
  [
    {
      key: 'patientQuestions',
      text: '患者咨询',
      path: '/pages/docQuestList/docQuestList',
      needsLogin: true,
      role: 'expert',
    },
    {
      key: 'wallet',
      text: '我的钱包',
      path: '/pages/myWallet/myWallet',
      needsLogin: true,
      role: 'expert',
    },
    {
      key: EXPERT_ENTRY_KEY,
      text: '专家认证',
      path: '/pages/expertPerfect/expertPerfect',
      needsLogin: true,
    },
  ],
  [
    { key: 'feedback', text: '意见反馈', path: '/pages/feedback/feedback', needsLogin: false },
    { key: 'setup', text: '设置', path: '/pages/setup/setup', needsLogin: false },
    { key: 'about', text: '关于我们', path: '/pages/about/about', needsLogin: false },
  ],
]

/**
 * The groups one person sees. A role-only entry shows when the role-right tree lists its page, or,
 * before the tree has loaded (or when signed out), when the person's role matches.
 */
export function visibleGroups(role: Role, allowedPaths: ReadonlySet<string> | null): MineEntry[][] {
  return MINE_GROUPS.map((group) =>
    group.filter((entry) => {
      if (!entry.role) return true
      if (allowedPaths) return allowedPaths.has(entry.path.replace(/^\//, ''))
      return entry.role === role
    }),
  ).filter((group) => group.length > 0)
}

/** What 专家认证 says: a patient is invited to apply, an expert sees the state. */
export function expertEntryText(role: Role): { text: string; extra: string } {
  return role === 'expert'
    ? { text: '专家认证', extra: '已认证' }
    : { text: '申请成为专家', extra: '' }
}
