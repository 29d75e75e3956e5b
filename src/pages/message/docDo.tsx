import { Text, View } from '@tarojs/components'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ReceivedGrants } from '../../features/mine/components/received-grants'
import { useToDo } from '../../features/mine/hooks/use-to-do'
import './docDo.scss'

function ToDo() {
  const grants = useToDo()
  if (grants.status === 'loading') return <PageState status="loading" />
  if (grants.status === 'error') {
    return <PageState status="error" message={grants.message} onRetry={grants.reload} />
  }
  return (
    <View className="doc-do">
      <Text className="doc-do__hint">患者授权您查看的影像和报告，在有效期内可随时打开。</Text>
      <ReceivedGrants grants={grants.data} alwaysShow />
      <Text className="doc-do__note">咨询与会诊的待办将在在线咨询功能上线后显示在这里。</Text>
    </View>
  )
}

/** 消息处理: a doctor's to-dos — today the records patients authorised them to see. */
export default function MessageDocDoPage() {
  return (
    <RequireLogin text="登录后查看待处理事项">
      <ToDo />
    </RequireLogin>
  )
}
