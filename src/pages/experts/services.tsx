import { RequireLogin } from '../../components/require-login'
import { ExpertSettingsView } from '../../features/experts/settings/components/expert-settings-view'
import { useExpertSettings } from '../../features/experts/settings/hooks/use-expert-settings'
import { navigate } from '../../services/navigate'

function ExpertSettingsContent() {
  return (
    <ExpertSettingsView
      model={useExpertSettings()}
      onCertify={() => void navigate('expertPerfect')}
      onOpenProfile={(id) => void navigate('personalDetail', { id })}
    />
  )
}

/** 服务设置 (experts only): 接诊中 / 暂停接诊, prices in 元, the daily limit, 简介 and 擅长方向. */
export default function ExpertServicesPage() {
  return (
    <RequireLogin text="登录后管理您的专家服务">
      <ExpertSettingsContent />
    </RequireLogin>
  )
}
