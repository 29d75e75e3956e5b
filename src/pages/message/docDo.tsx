import { Text, View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { useState } from 'react'
import { PageState } from '../../components/page-state'
import { RequireLogin } from '../../components/require-login'
import { ReceivedGrants } from '../../features/mine/components/received-grants'
import { loadReceivedGrants } from '../../features/mine/received-grants'
import { describeError } from '../../services/api'
import type { ReceivedGrant } from '../../services/shares'
import './docDo.scss'

function ToDo() {
  const [state, setState] = useState<
    | { status: 'loading' }
    | { status: 'ready'; grants: ReceivedGrant[] }
    | { status: 'error'; error: string }
  >({ status: 'loading' })
  const load = () =>
    loadReceivedGrants().then(
      (grants) => setState({ status: 'ready', grants }),
      (error) => setState({ status: 'error', error: describeError(error, '加载失败，请稍后重试') }),
    )
  useDidShow(() => void load())
  if (state.status === 'loading') return <PageState status="loading" />
  if (state.status === 'error')
    return <PageState status="error" message={state.error} onRetry={() => void load()} />
  return (
    <View className="doc-do">
      <Text className="doc-do__hint">患者授权您查看的影像和报告，在有效期内可随时打开。</Text>
      <ReceivedGrants grants={state.grants} alwaysShow />
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
