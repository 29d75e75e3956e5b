/**
 * The route table of SPEC section 2, as data. app.config.ts, the page configs, typed navigation and the
 * route test all read it, so a path is written once.
 *
 * `issue` names the tracker issue that builds a page; until then the page shows an honest
 * "功能建设中" state instead of pretend content.
 */
export interface RouteDef {
  /** Exact spec path without the leading slash, as Taro wants it. */
  path: string
  title: string
  /** Bottom-bar index for the two tab pages. */
  tab?: 0 | 1
  /** Pages drawn without the navigation bar (the intro page). */
  customNavigation?: boolean
  /** Native pull-down refresh; our lists use their own pull-to-refresh, so this stays off. */
  pullDownRefresh?: boolean
  /** The issue that builds this page; absent once the page is real. */
  issue?: number
}

export const PRODUCT_NAME = '医影通'

export const THEME = {
  primary: '#0DB4AA',
  tabText: '#666666',
  pageBackground: '#f3f4f6',
} as const

const LATER = 0 // scheduled in a later issue, not yet filed

export const ROUTES: readonly RouteDef[] = [
  { path: 'pages/main/main', title: PRODUCT_NAME, tab: 0 },
  { path: 'pages/user/user', title: '我的', tab: 1 },
  { path: 'pages/login/login', title: '登录' },
  { path: 'pages/login/loginios', title: '登录' },
  { path: 'pages/reg/reg', title: '注册' },
  { path: 'pages/reg/reg-info', title: '完善注册信息' },
  { path: 'pages/agreement/agreement', title: '用户协议' },
  { path: 'pages/agreement/expertAgreement', title: '专家协议' },
  { path: 'pages/userAgreement/userAgreement', title: '用户协议' },
  { path: 'pages/privacyPolicy/privacyPolicy', title: '隐私政策' },
  { path: 'pages/userInfo/userInfo', title: '个人信息' },
  { path: 'pages/integration/integration', title: '应用中心', issue: LATER },
  { path: 'pages/test/test', title: '诊断信息' },
  { path: 'pages/test/index', title: '诊断信息' },
  { path: 'pages/setup/setup', title: '设置' },
  { path: 'pages/user/setup', title: '设置' },
  { path: 'pages/user/user-ol', title: '我的', customNavigation: true },
  { path: 'pages/user/notice', title: '通知设置' },
  { path: 'pages/infoDetail/infoDetail', title: '资讯详情', issue: LATER },
  { path: 'pages/infoList/infoList', title: '健康资讯', issue: LATER },
  { path: 'pages/infoList/index', title: '健康资讯', issue: LATER },
  { path: 'pages/search/search', title: '搜索', issue: LATER },
  { path: 'pages/hospitalList/hospitalList', title: '数据切换中心', issue: LATER },
  { path: 'pages/msg/list', title: '我的消息', issue: LATER },
  { path: 'pages/scanLogin/scanLogin', title: '扫码登录' },
  { path: 'pages/lead/lead', title: '欢迎', customNavigation: true },
  { path: 'pages/expertPerfect/expertPerfect', title: '专家认证', issue: LATER },
  { path: 'pages/expertPerfect/selectHos', title: '选择医院', issue: LATER },
  {
    path: 'uview-ui/components/u-avatar-cropper/u-avatar-cropper',
    title: '裁剪头像',
  },
  { path: 'pages/personalReport/index', title: '个人报告', issue: LATER },
  { path: 'pages/personalReport/index-weixin', title: '个人报告', issue: LATER },
  { path: 'pages/personalReport/detail', title: '报告详情', issue: LATER },
  { path: 'pages/personalReport/detail2', title: '报告详情', issue: LATER },
  { path: 'pages/personalReport/detail-ys', title: '报告详情', issue: LATER },
  { path: 'pages/personalReport/index-ys', title: '我的报告', issue: LATER },
  { path: 'pages/personalReport/shouquan-list', title: '授权记录', issue: LATER },
  { path: 'pages/personalImage/index', title: '个人影像', issue: LATER },
  { path: 'pages/personalImage/index-weixin', title: '影像查询', issue: LATER },
  { path: 'pages/personalImage/imageHospital', title: '选择地区或医院', issue: LATER },
  { path: 'pages/personalImage/detail', title: '影像详情', issue: LATER },
  { path: 'pages/personalImage/list', title: '院内查询', issue: LATER },
  { path: 'pages/personalDetail/personalDetail', title: '个人详情', issue: LATER },
  { path: 'pages/feedback/feedback', title: '意见反馈', issue: LATER },
  { path: 'pages/bindTel/bindTel', title: '绑定手机号' },
  { path: 'pages/pwd/pwd', title: '修改密码' },
  { path: 'pages/webview/webview', title: '网页', issue: LATER },
  { path: 'pages/webview/webview-head', title: '网页', issue: LATER },
  { path: 'pages/docQuestList/docQuestList', title: '患者咨询', issue: LATER },
  { path: 'pages/questionList/questionList', title: '我的咨询', issue: LATER },
  { path: 'pages/question/question', title: '咨询详情', issue: LATER },
  { path: 'pages/myMessage/myMessage', title: '咨询消息', issue: LATER },
  { path: 'pages/myMessage/detail', title: '消息详情', issue: LATER },
  { path: 'pages/message/docDo', title: '消息处理', issue: LATER },
  { path: 'pages/message/detail', title: '消息详情', issue: LATER },
  { path: 'pages/collectList/collectList', title: '我的收藏', issue: LATER },
  { path: 'pages/myWallet/myWallet', title: '我的钱包', issue: LATER },
  { path: 'pages/myWallet/withdraw', title: '提现', issue: LATER },
  { path: 'pages/myWallet/withdrawList', title: '提现记录', issue: LATER },
  { path: 'pages/idcard/idcard', title: '绑定身份证' },
  { path: 'pages/delAccount/delAccount', title: '注销账号' },
  { path: 'pages/report/report', title: '报告', issue: LATER },
  { path: 'pages/report/reportNew', title: '检查申请单', issue: LATER },
  { path: 'pages/report/reportIn', title: '院内报告', issue: LATER },
  { path: 'components/bar-code/bar-code', title: '条形码', issue: LATER },
  { path: 'pages/about/about', title: '关于我们' },
  { path: 'pages/scanPage/scanPage', title: '扫一扫' },
  { path: 'pages/scanPage/scanPage2', title: '扫一扫' },
  { path: 'pages/middleRemote/middleRemote', title: '选择会诊方式', issue: LATER },
  { path: 'pages/videoShow/videoShow', title: '健康视频', issue: LATER },
  { path: 'pages/videoShow/videoShowDetail', title: '视频详情', issue: LATER },
  { path: 'pages/videoShow/videoShowJJ', title: '急救讲堂', issue: LATER },
  { path: 'pages/videoShow/videoShowYs', title: '药膳视频', issue: LATER },
  { path: 'pages/videoShow/videoShowYsDetail', title: '药膳视频详情', issue: LATER },
  { path: 'pages/relationCard/relationCard', title: '亲情卡', issue: LATER },
  { path: 'pages/consult/consult', title: '会诊申请信息', issue: LATER },
  { path: 'pages/consult/applyPatInfo', title: '会诊申请', issue: LATER },
  { path: 'pages/consult/examine', title: '检查信息', issue: LATER },
  { path: 'choose-location', title: '选择位置', issue: LATER },
  { path: 'open-location', title: '查看位置', issue: LATER },
]

/**
 * Folders whose pages ship in the main package: the tabs, login and what start-up needs (the privacy
 * policy consent). A tab page's
 * folder cannot also be a subpackage root, so its sibling routes stay in the main package as well.
 */
const MAIN_PACKAGE_FOLDERS = new Set([
  'pages/main',
  'pages/user',
  'pages/login',
  'pages/privacyPolicy',
])

/** Root-level routes (`/choose-location`) have no folder; they ship in the main package. */
export function folderOf(path: string): string {
  const slash = path.lastIndexOf('/')
  return slash < 0 ? '' : path.slice(0, slash)
}

export function isMainPackage(route: RouteDef): boolean {
  const folder = folderOf(route.path)
  return folder === '' || MAIN_PACKAGE_FOLDERS.has(folder)
}

export function findRoute(path: string): RouteDef | undefined {
  const clean = path.replace(/^\//, '').split('?')[0]
  if (clean === '') return ROUTES[0]
  return ROUTES.find((route) => route.path === clean)
}

export const TAB_ROUTES = ROUTES.filter((route) => route.tab !== undefined).sort(
  (a, b) => (a.tab ?? 0) - (b.tab ?? 0),
)

export interface SubPackage {
  root: string
  pages: string[]
}

/** One subpackage per route folder, rooted at that folder so every path stays the spec's. */
export function subPackages(): SubPackage[] {
  const byRoot = new Map<string, string[]>()
  for (const route of ROUTES) {
    if (isMainPackage(route)) continue
    const root = folderOf(route.path)
    const pages = byRoot.get(root) ?? []
    pages.push(route.path.slice(root.length + 1))
    byRoot.set(root, pages)
  }
  return [...byRoot].map(([root, pages]) => ({ root, pages }))
}

export function mainPackagePages(): string[] {
  return ROUTES.filter(isMainPackage).map((route) => route.path)
}

/** The page config Taro reads for one route (`index.config.ts` files call this). */
export function pageConfig(path: string) {
  const route = findRoute(path)
  if (!route) throw new Error(`route not in SPEC table: ${path}`)
  return {
    navigationBarTitleText: route.title,
    enablePullDownRefresh: route.pullDownRefresh ?? false,
    // SPEC section 9: load-more triggers 80 px before the bottom (lists load on the page's own scroll).
    onReachBottomDistance: 80,
    ...(route.customNavigation ? { navigationStyle: 'custom' as const } : {}),
  }
}
