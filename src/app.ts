import type { PropsWithChildren } from 'react'
import { useLaunch } from '@tarojs/taro'
import { scheduleLaunchChecks } from './features/launch/schedule-launch-checks'
import { startUpdateCheck } from './features/launch/update-check'
import { currentEnvironment } from './platform/environment'
import { markInSocialApp } from './platform/runtime'
import { installScreenLoading } from './platform/screen-loading'
import { useGlobalStore } from './stores/global-store'
import '@nutui/nutui-react-taro/dist/styles/themes/default.css'
import './app.scss'

// Before the router asks for the first page's chunk (SPEC section 9's screen-load timeout).
installScreenLoading()

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    const environment = currentEnvironment()
    const inSocialApp = environment.wechat || environment.qq || environment.weibo
    useGlobalStore.getState().setInSocialApp(inSocialApp)
    if (inSocialApp) markInSocialApp()
    scheduleLaunchChecks()
    startUpdateCheck()
  })
  return children
}

export default App
