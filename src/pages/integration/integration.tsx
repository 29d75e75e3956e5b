import { AppsView } from '../../features/apps/components/apps-view'
import { useApps } from '../../features/apps/hooks/use-apps'
import { openMessageLink } from '../../features/messages/link'
import { showToast } from '../../platform/ui'
import { navigate, routeUrl } from '../../services/navigate'

/** 应用中心: the features the server has switched on, and 我的积分. */
export default function IntegrationPage() {
  return (
    <AppsView
      model={useApps()}
      onOpen={(feature) => {
        // A web page opens through 网页, which checks the server's allow-list first.
        if (!('route' in feature.link)) return void navigate('webview', { url: feature.link.url })
        void openMessageLink(feature.link).then((opened) => {
          if (!opened) showToast('该应用即将上线')
        })
      }}
      onLogin={() => void navigate('login', { redirect: routeUrl('appCenter') })}
    />
  )
}
