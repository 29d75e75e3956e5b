/** The settings list (设置), grouped as the page shows it. Every path is a spec route. */
export interface SetupEntry {
  key: 'profile' | 'password' | 'phone' | 'idcard' | 'notice' | 'about' | 'diagnostics' | 'delete'
  text: string
  path: string
  /** Entries about the account itself go to login first when signed out. */
  needsLogin: boolean
}

export const SETUP_GROUPS: readonly (readonly SetupEntry[])[] = [
  [
    { key: 'profile', text: '个人信息', path: '/pages/userInfo/userInfo', needsLogin: true },
    { key: 'password', text: '修改密码', path: '/pages/pwd/pwd', needsLogin: true },
    { key: 'phone', text: '绑定手机号', path: '/pages/bindTel/bindTel', needsLogin: true },
    { key: 'idcard', text: '实名认证', path: '/pages/idcard/idcard', needsLogin: true },
  ],
  [
    { key: 'notice', text: '通知设置', path: '/pages/user/notice', needsLogin: true },
    { key: 'about', text: '关于我们', path: '/pages/about/about', needsLogin: false },
    { key: 'diagnostics', text: '诊断信息', path: '/pages/test/test', needsLogin: false },
  ],
  [{ key: 'delete', text: '注销账号', path: '/pages/delAccount/delAccount', needsLogin: true }],
]

export const LOGIN_PATH = '/pages/login/login'
export const MINE_PATH = '/pages/user/user'
