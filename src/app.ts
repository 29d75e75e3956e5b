import type { PropsWithChildren } from 'react'
import { useLaunch } from '@tarojs/taro'
import { scheduleLaunchChecks } from './features/launch/schedule-launch-checks'
import { startUpdateCheck } from './features/launch/update-check'
import { currentEnvironment } from './platform/environment'
import { setUpIcons } from './platform/icons'
import { markInSocialApp } from './platform/runtime'
import { installScreenLoading } from './platform/screen-loading'
import { useGlobalStore } from './stores/global-store'
import '@nutui/nutui-react-taro/dist/styles/themes/default.css'
// The icons' own sizes (16 px unless a size is given): without it every icon NutUI draws itself
// (the Checkbox and Radio marks, the Input's clear button) is 0×0, on every page and package.
import '@nutui/icons-react-taro/dist/style_icon.css'
import './app.scss'

setUpIcons()
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
