import Taro from '@tarojs/taro'
import { routeByName } from '@/routes'

/** The bottom bar's Mine tab (src/routes.ts tab index). */
const MINE_TAB = routeByName('user').tab ?? 1

/**
 * 我的消息's unread count as a badge on the Mine tab (both platforms draw Taro's tab bar), so a new
 * message shows from the home page too. 99+ past 99, as WeChat does; nothing when there are none.
 */
export function showUnreadOnMineTab(count: number): void {
  const done = () => undefined
  if (count > 0) {
    Taro.setTabBarBadge({ index: MINE_TAB, text: count > 99 ? '99+' : String(count) }).then(
      done,
      done,
    )
  } else {
    Taro.removeTabBarBadge({ index: MINE_TAB }).then(done, done)
  }
}
