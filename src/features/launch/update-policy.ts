/** The update check's rules, shared by the mini-program and H5 variants (and their tests). */

export const UPDATE_TEXTS = {
  title: '发现新版本',
  readyWeapp: '新版本已经准备好，是否重启应用？',
  failedWeapp: '新版本下载失败，请删除小程序后重新搜索打开',
  readyH5: '医影通已更新，刷新页面即可使用新版本',
  confirmWeapp: '重启',
  confirmH5: '刷新',
  later: '稍后',
} as const

/** H5 asks again at most this often (on launch and when the tab comes back). */
export const H5_CHECK_INTERVAL_MS = 10 * 60 * 1000

/**
 * Whether the server serves a newer H5 build than the one running. A build without its id (a dev
 * server, Jest) or a server serving none never prompts: a prompt must mean a real new version.
 */
export function isNewBuild(running: string | undefined, deployed: string | null): boolean {
  return Boolean(running) && deployed !== null && deployed !== running
}
