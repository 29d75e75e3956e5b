import { RequireLogin } from '../../components/require-login'
import { NoticeView } from '../../features/settings/components/notice-view'
import { useNoticeSettings } from '../../features/settings/hooks/use-notice-settings'

function UserNoticeContent() {
  const model = useNoticeSettings()
  return <NoticeView model={model} />
}

export default function UserNoticePage() {
  return (
    <RequireLogin text="登录后才能设置通知">
      <UserNoticeContent />
    </RequireLogin>
  )
}
