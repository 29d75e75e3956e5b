import { TAB_ROUTES, mainPackagePages, subPackages, PRODUCT_NAME } from './routes'
import { THEME } from './theme'

const NETWORK_TIMEOUT_MS = 60000

const TAB_ICONS = ['home', 'user'] as const

export default defineAppConfig({
  pages: mainPackagePages(),
  subPackages: subPackages(),
  window: {
    // 'default' also draws Taro's navigation bar in the H5 build (WeChat's browser has its own title).
    navigationStyle: 'default',
    navigationBarBackgroundColor: THEME.primary,
    navigationBarTextStyle: 'white',
    navigationBarTitleText: PRODUCT_NAME,
    backgroundColor: THEME.pageBackground,
    backgroundTextStyle: 'dark',
    enablePullDownRefresh: false,
  },
  tabBar: {
    color: THEME.tabText,
    selectedColor: THEME.primary,
    backgroundColor: '#ffffff',
    borderStyle: 'white',
    list: TAB_ROUTES.map((route, index) => ({
      pagePath: route.path,
      text: route.title === PRODUCT_NAME ? '首页' : route.title,
      iconPath: `assets/tabbar/${TAB_ICONS[index]}.png`,
      selectedIconPath: `assets/tabbar/${TAB_ICONS[index]}-active.png`,
    })),
  },
  // SPEC section 9: request, socket, upload and download time out after 60000 ms each (the http
  // wrapper also passes its own 60000 ms per call; this covers WebSockets and any other caller).
  networkTimeout: {
    request: NETWORK_TIMEOUT_MS,
    connectSocket: NETWORK_TIMEOUT_MS,
    uploadFile: NETWORK_TIMEOUT_MS,
    downloadFile: NETWORK_TIMEOUT_MS,
  },
  // WeChat's privacy API (getPrivacySetting / onNeedPrivacyAuthorization) needs this flag.
  __usePrivacyCheck__: true,
  lazyCodeLoading: 'requiredComponents',
  requiredPrivateInfos: ['chooseLocation', 'getFuzzyLocation'],
  permission: {
    'scope.userLocation': { desc: '用于查找附近的医院' },
  },
})
