import type { PropsWithChildren } from 'react'
import { useLaunch } from '@tarojs/taro'
import '@nutui/nutui-react-taro/dist/styles/themes/default.css'
import './app.scss'

function App({ children }: PropsWithChildren) {
  useLaunch(() => {
    // Launch checks (proxy, privacy policy) are wired in once src/features/launch lands.
  })
  return children
}

export default App
