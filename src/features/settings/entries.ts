import type { RouteName } from '@/routes'

/** The settings list (设置), grouped as the page shows it. Every entry opens a spec route. */
export interface SetupEntry {
  key:
    | 'profile'
    | 'password'
    | 'phone'
    | 'idcard'
    | 'security'
    | 'privacy'
    | 'export'
    | 'notice'
    | 'about'
    | 'diagnostics'
    | 'delete'
  text: string
  route: RouteName
  /** Entries about the account itself go to login first when signed out. */
  needsLogin: boolean
}

export const SETUP_GROUPS: readonly (readonly SetupEntry[])[] = [
  [
    { key: 'profile', text: '个人信息', route: 'userInfo', needsLogin: true },
    { key: 'password', text: '修改密码', route: 'password', needsLogin: true },
    { key: 'phone', text: '绑定手机号', route: 'bindPhone', needsLogin: true },
    { key: 'idcard', text: '身份证', route: 'idCard', needsLogin: true },
    { key: 'security', text: '登录记录', route: 'securityLog', needsLogin: true },
  ],
  [
    { key: 'privacy', text: '隐私与授权', route: 'privacyCenter', needsLogin: true },
    { key: 'export', text: '导出我的数据', route: 'dataExport', needsLogin: true },
  ],
  [
    { key: 'notice', text: '通知设置', route: 'notificationSettings', needsLogin: true },
    { key: 'about', text: '关于我们', route: 'about', needsLogin: false },
    { key: 'diagnostics', text: '诊断信息', route: 'diagnostics', needsLogin: false },
  ],
  [{ key: 'delete', text: '注销账号', route: 'deleteAccount', needsLogin: true }],
]
