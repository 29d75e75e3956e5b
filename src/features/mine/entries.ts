/** The Mine page's menu, grouped as a Chinese medical app shows it. Every path is a spec route. */
export interface MineEntry {
  key: string
  text: string
  path: string
  /** Entries that only make sense once signed in go to login first. */
  needsLogin: boolean
}

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
      key: 'expert',
      text: '专家认证',
      path: '/pages/expertPerfect/expertPerfect',
      needsLogin: true,
    },
    { key: 'wallet', text: '我的钱包', path: '/pages/myWallet/myWallet', needsLogin: true },
  ],
  [
    { key: 'feedback', text: '意见反馈', path: '/pages/feedback/feedback', needsLogin: false },
    { key: 'setup', text: '设置', path: '/pages/setup/setup', needsLogin: false },
    { key: 'about', text: '关于我们', path: '/pages/about/about', needsLogin: false },
  ],
]
