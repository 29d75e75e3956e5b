/**
 * The route table of SPEC section 2, as data. app.config.ts, the page configs, typed navigation and the
 * route test all read it, so a path is written once.
 *
 * `issue` names the tracker issue that builds a page; until then the page shows an honest
 * "即将上线" state instead of pretend content, and links to it say 即将上线 (`isComingSoon`). Every
 * route of the spec is built today (issue 23 built the last three, /pages/report/*); a page added
 * ahead of its issue gets `issue: N` again.
 */
export interface RouteDef {
  /**
   * What code calls the page by (`navigate('login')`); no page or feature writes a path. A name says
   * what the page is (`filmReport`, not the spec's `detail2`). Names the server sends in links
   * (contract `link.route`: hospitalList, collectList, myReports, videoShow…) keep their old spelling:
   * renaming one is a change to the API and to links already stored.
   */
  name: string
  /** Exact spec path without the leading slash, as Taro wants it. */
  path: string
  title: string
  /** Bottom-bar index for the two tab pages. */
  tab?: 0 | 1
  /** Pages drawn without the navigation bar (the intro page). */
  customNavigation?: boolean
  /** Native pull-down refresh; our lists use their own pull-to-refresh, so this stays off. */
  pullDownRefresh?: boolean
  /** 'auto': the mini-program turns the page with the phone (the viewer's 横屏全屏). */
  pageOrientation?: 'auto'
  /** A black page without scrolling (the image viewer: dark around the image, gestures own touch). */
  dark?: boolean
  /** The mini-program may share from this page (转发, a share button): the 授权 sheet's share card. */
  shareCard?: boolean
  /**
   * Built into the H5 app only (the operators' pages): the mini-program's app.json never lists it,
   * so its code is not in the weapp package at all.
   */
  h5Only?: boolean
  /** The issue that builds this page; absent once the page is real. */
  issue?: number
  /**
   * Why a page that SPEC section 2 does not list exists (the spec's table is cut off, so later
   * issues may add pages); src/__tests__/spec-routes.test.ts holds every other route to the spec.
   */
  notInSpec?: string
}

export const PRODUCT_NAME = '医影通'

const TABLE = [
  { name: 'main', path: 'pages/main/main', title: PRODUCT_NAME, tab: 0 },
  { name: 'user', path: 'pages/user/user', title: '我的', tab: 1 },
  { name: 'login', path: 'pages/login/login', title: '登录' },
  { name: 'loginIos', path: 'pages/login/loginios', title: '登录' },
  { name: 'register', path: 'pages/reg/reg', title: '注册' },
  { name: 'registerInfo', path: 'pages/reg/reg-info', title: '完善注册信息' },
  { name: 'agreement', path: 'pages/agreement/agreement', title: '用户协议' },
  { name: 'expertAgreement', path: 'pages/agreement/expertAgreement', title: '专家协议' },
  { name: 'userAgreement', path: 'pages/userAgreement/userAgreement', title: '用户协议' },
  { name: 'privacyPolicy', path: 'pages/privacyPolicy/privacyPolicy', title: '隐私政策' },
  { name: 'userInfo', path: 'pages/userInfo/userInfo', title: '个人信息' },
  { name: 'appCenter', path: 'pages/integration/integration', title: '应用中心' },
  { name: 'diagnostics', path: 'pages/test/test', title: '诊断信息' },
  { name: 'diagnosticsIndex', path: 'pages/test/index', title: '诊断信息' },
  { name: 'settings', path: 'pages/setup/setup', title: '设置' },
  { name: 'userSettings', path: 'pages/user/setup', title: '设置' },
  { name: 'userTitleBar', path: 'pages/user/user-ol', title: '我的', customNavigation: true },
  { name: 'notificationSettings', path: 'pages/user/notice', title: '通知设置' },
  {
    name: 'infoDetail',
    path: 'pages/infoDetail/infoDetail',
    title: '资讯详情',
    shareCard: true,
  },
  { name: 'infoList', path: 'pages/infoList/infoList', title: '健康资讯' },
  { name: 'infoListByType', path: 'pages/infoList/index', title: '健康资讯' },
  { name: 'search', path: 'pages/search/search', title: '搜索' },
  {
    name: 'hospitalList',
    path: 'pages/hospitalList/hospitalList',
    title: '数据切换中心',
  },
  { name: 'messages', path: 'pages/msg/list', title: '我的消息' },
  { name: 'scanLogin', path: 'pages/scanLogin/scanLogin', title: '扫码登录' },
  { name: 'intro', path: 'pages/lead/lead', title: '欢迎', customNavigation: true },
  {
    name: 'expertPerfect',
    path: 'pages/expertPerfect/expertPerfect',
    title: '专家认证',
  },
  {
    name: 'expertHospital',
    path: 'pages/expertPerfect/selectHos',
    title: '选择医院',
  },
  {
    name: 'avatarCropper',
    path: 'uview-ui/components/u-avatar-cropper/u-avatar-cropper',
    title: '裁剪头像',
  },
  { name: 'personalReport', path: 'pages/personalReport/index', title: '个人报告' },
  {
    name: 'reportsLanding',
    path: 'pages/personalReport/index-weixin',
    title: '个人报告',
  },
  { name: 'reportDetail', path: 'pages/personalReport/detail', title: '报告详情', shareCard: true },
  { name: 'filmReport', path: 'pages/personalReport/detail2', title: '报告详情' },
  {
    name: 'uploadDetail',
    path: 'pages/personalReport/detail-ys',
    title: '报告详情',
    shareCard: true,
  },
  { name: 'myReports', path: 'pages/personalReport/index-ys', title: '我的报告' },
  { name: 'grantList', path: 'pages/personalReport/shouquan-list', title: '授权记录' },
  { name: 'myImages', path: 'pages/personalImage/index', title: '个人影像' },
  { name: 'imageQuery', path: 'pages/personalImage/index-weixin', title: '影像查询' },
  {
    name: 'hospitalPicker',
    path: 'pages/personalImage/imageHospital',
    title: '选择地区或医院',
  },
  { name: 'imageDetail', path: 'pages/personalImage/detail', title: '影像详情', shareCard: true },
  { name: 'hospitalExams', path: 'pages/personalImage/list', title: '院内查询' },
  {
    name: 'imageViewer',
    path: 'pages/personalImage/viewer',
    title: '影像查看',
    pageOrientation: 'auto',
    dark: true,
    notInSpec: 'issue 8: the DICOM viewer, opened from the image detail, the report and key images',
  },
  { name: 'personalDetail', path: 'pages/personalDetail/personalDetail', title: '专家主页' },
  { name: 'feedback', path: 'pages/feedback/feedback', title: '意见反馈' },
  { name: 'bindPhone', path: 'pages/bindTel/bindTel', title: '绑定手机号' },
  { name: 'password', path: 'pages/pwd/pwd', title: '修改密码' },
  { name: 'webview', path: 'pages/webview/webview', title: '网页' },
  { name: 'webviewTitled', path: 'pages/webview/webview-head', title: '网页' },
  {
    name: 'patientQuestions',
    path: 'pages/docQuestList/docQuestList',
    title: '患者咨询',
  },
  { name: 'questionList', path: 'pages/questionList/questionList', title: '我的咨询' },
  { name: 'question', path: 'pages/question/question', title: '咨询详情' },
  { name: 'myMessage', path: 'pages/myMessage/myMessage', title: '咨询消息' },
  { name: 'myMessageDetail', path: 'pages/myMessage/detail', title: '消息详情' },
  { name: 'messageAction', path: 'pages/message/docDo', title: '消息处理' },
  { name: 'messageDetail', path: 'pages/message/detail', title: '消息详情' },
  { name: 'collectList', path: 'pages/collectList/collectList', title: '我的收藏' },
  { name: 'myWallet', path: 'pages/myWallet/myWallet', title: '我的钱包' },
  { name: 'withdraw', path: 'pages/myWallet/withdraw', title: '提现' },
  { name: 'withdrawList', path: 'pages/myWallet/withdrawList', title: '提现记录' },
  {
    name: 'walletTrade',
    path: 'pages/myWallet/trade',
    title: '交易详情',
    notInSpec:
      'issue 22: a row of 交易记录 opens its detail (which consultation, which withdrawal)',
  },
  {
    name: 'withdrawal',
    path: 'pages/myWallet/withdrawal',
    title: '提现详情',
    notInSpec: 'issue 22: one withdrawal with 取消, 确认收款 and 刷新状态',
  },
  { name: 'idCard', path: 'pages/idcard/idcard', title: '绑定身份证' },
  { name: 'deleteAccount', path: 'pages/delAccount/delAccount', title: '注销账号' },
  {
    name: 'securityLog',
    path: 'pages/securityLog/securityLog',
    title: '登录记录',
    notInSpec: 'issue 6: the user reads their own security events under 我的 → 设置',
  },
  {
    name: 'privacyCenter',
    path: 'pages/user/privacy',
    title: '隐私与授权',
    notInSpec:
      'issue 24: every consent by purpose (PIPL art. 29) with its history, withdrawn from one place',
  },
  {
    name: 'dataExport',
    path: 'pages/user/dataExport',
    title: '导出我的数据',
    notInSpec: 'issue 24: a copy of everything to take away (PIPL art. 45), and its import',
  },
  { name: 'report', path: 'pages/report/report', title: '会诊报告' },
  { name: 'reportNew', path: 'pages/report/reportNew', title: '检查申请单' },
  { name: 'reportIn', path: 'pages/report/reportIn', title: '院内报告' },
  { name: 'barCode', path: 'components/bar-code/bar-code', title: '条形码' },
  { name: 'about', path: 'pages/about/about', title: '关于我们' },
  { name: 'scanPage', path: 'pages/scanPage/scanPage', title: '扫一扫' },
  { name: 'scanDirect', path: 'pages/scanPage/scanPage2', title: '扫一扫' },
  { name: 'consultMode', path: 'pages/middleRemote/middleRemote', title: '选择会诊方式' },
  { name: 'videoShow', path: 'pages/videoShow/videoShow', title: '健康视频' },
  {
    name: 'videoShowDetail',
    path: 'pages/videoShow/videoShowDetail',
    title: '视频详情',
    shareCard: true,
  },
  { name: 'videoShowJJ', path: 'pages/videoShow/videoShowJJ', title: '急救讲堂' },
  { name: 'videoShowYs', path: 'pages/videoShow/videoShowYs', title: '药膳视频' },
  {
    name: 'videoShowYsDetail',
    path: 'pages/videoShow/videoShowYsDetail',
    title: '药膳视频详情',
    shareCard: true,
  },
  { name: 'familyCard', path: 'pages/relationCard/relationCard', title: '亲情卡' },
  {
    name: 'share',
    path: 'pages/share/share',
    title: '查看分享',
    notInSpec: 'issue 9: a share link (or 共享给我的) opens here: 提取码, then the shared records',
  },
  {
    name: 'shareExam',
    path: 'pages/share/exam',
    title: '影像详情',
    notInSpec: 'issue 9: an exam seen through a grant (watermark, no 授权 or 分享)',
  },
  {
    name: 'shareReport',
    path: 'pages/share/report',
    title: '报告详情',
    notInSpec: 'issue 9: a report seen through a grant (watermark, no 授权 or 分享)',
  },
  { name: 'consult', path: 'pages/consult/consult', title: '会诊申请信息' },
  { name: 'consultApplication', path: 'pages/consult/applyPatInfo', title: '会诊申请' },
  { name: 'examine', path: 'pages/consult/examine', title: '检查信息' },
  {
    name: 'operator',
    path: 'pages/operator/index',
    title: '运营后台',
    h5Only: true,
    notInSpec:
      'issue 10: operators publish content, answer feedback, switch apps, manage hospitals',
  },
  {
    name: 'operatorArticle',
    path: 'pages/operator/article',
    title: '编辑文章',
    h5Only: true,
    notInSpec: 'issue 10: an operator writes or edits an article (H5 only)',
  },
  {
    name: 'expertList',
    path: 'pages/experts/list',
    title: '找专家',
    notInSpec: 'issue 20: 找专家 from the home, the certified experts with filters',
  },
  {
    name: 'expertServices',
    path: 'pages/experts/services',
    title: '服务设置',
    notInSpec:
      'issue 20: an expert sets prices, 接诊中 / 暂停接诊, the daily limit and the profile',
  },
  {
    name: 'operatorExpertApplication',
    path: 'pages/operator/expertApplication',
    title: '专家认证审核',
    h5Only: true,
    notInSpec: 'issue 20: an operator checks one expert application beside its photos (H5 only)',
  },
  { name: 'chooseLocation', path: 'choose-location', title: '选择位置' },
  { name: 'openLocation', path: 'open-location', title: '查看位置' },
] as const satisfies readonly RouteDef[]

export const ROUTES: readonly RouteDef[] = TABLE

type AnyRoute = (typeof TABLE)[number]
/** Every page's name, as a union: a misspelt or removed page is a type error where it is opened. */
export type RouteName = AnyRoute['name']
/** The two bottom-bar pages, the only ones `switchTab` may open. */
export type TabRouteName = Extract<AnyRoute, { tab: 0 | 1 }>['name']
export type RoutePath<N extends RouteName> = Extract<AnyRoute, { name: N }>['path']

const BY_NAME = new Map<string, RouteDef>(ROUTES.map((route) => [route.name, route]))

export function routeByName(name: RouteName): RouteDef {
  const route = BY_NAME.get(name)
  if (!route) throw new Error(`no route named ${name}`)
  return route
}

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

/** A page whose issue has not landed yet: links to it say 即将上线 rather than promise it. */
export function isComingSoon(name: RouteName): boolean {
  return routeByName(name).issue !== undefined
}

export function findRoute(path: string): RouteDef | undefined {
  const clean = path.replace(/^\//, '').split('?')[0]
  if (clean === '') return ROUTES[0]
  return ROUTES.find((route) => route.path === clean)
}

export const TAB_ROUTES: RouteDef[] = ROUTES.filter((route) => route.tab !== undefined).sort(
  (a, b) => (a.tab ?? 0) - (b.tab ?? 0),
)

export interface SubPackage {
  root: string
  pages: string[]
}

/** Whether the build for this platform has the page (operators' pages are H5 only). */
export function isBuilt(route: RouteDef, platform = process.env.TARO_ENV): boolean {
  return !route.h5Only || platform === 'h5'
}

/** One subpackage per route folder, rooted at that folder so every path stays the spec's. */
export function subPackages(platform = process.env.TARO_ENV): SubPackage[] {
  const byRoot = new Map<string, string[]>()
  for (const route of ROUTES) {
    if (!isBuilt(route, platform)) continue
    if (isMainPackage(route)) continue
    const root = folderOf(route.path)
    const pages = byRoot.get(root) ?? []
    pages.push(route.path.slice(root.length + 1))
    byRoot.set(root, pages)
  }
  return [...byRoot].map(([root, pages]) => ({ root, pages }))
}

export function mainPackagePages(platform = process.env.TARO_ENV): string[] {
  return ROUTES.filter((route) => isMainPackage(route) && isBuilt(route, platform)).map(
    (route) => route.path,
  )
}

/** The page config Taro reads for one route (`index.config.ts` files call this). */
export function pageConfig(name: RouteName) {
  const route = routeByName(name)
  return {
    navigationBarTitleText: route.title,
    enablePullDownRefresh: route.pullDownRefresh ?? false,
    // SPEC section 9: load-more triggers 80 px before the bottom (lists load on the page's own scroll).
    onReachBottomDistance: 80,
    ...(route.customNavigation ? { navigationStyle: 'custom' as const } : {}),
    ...(route.pageOrientation ? { pageOrientation: route.pageOrientation } : {}),
    ...(route.shareCard ? { enableShareAppMessage: true } : {}),
    ...(route.dark
      ? {
          navigationBarBackgroundColor: '#000000',
          navigationBarTextStyle: 'white' as const,
          backgroundColor: '#000000',
          disableScroll: true,
        }
      : {}),
  }
}
