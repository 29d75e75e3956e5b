import { useCallback, useMemo } from 'react'
import Taro from '@tarojs/taro'
import { userAgent } from '@/platform/device'
import { currentEnvironment } from '@/platform/environment'
import { currentPlatform, currentSoftwareName } from '@/platform/runtime'
import { showToast } from '@/platform/ui'
import { allHosts } from '@/services/hosts'
import { useAppStore } from '@/stores/app-store'
import { useGlobalStore } from '@/stores/global-store'
import { usePolicyStore } from '@/stores/policy-store'
import { useSessionStore } from '@/stores/session-store'
import { collectDiagnostics, formatDiagnostics, type DiagnosticSection } from '../collect'

export interface DiagnosticsModel {
  sections: DiagnosticSection[]
  copy: () => void
}

export function useDiagnostics(): DiagnosticsModel {
  const hasLogin = useAppStore((state) => state.hasLogin)
  const userName = useAppStore((state) => state.userName)
  const hasToken = useSessionStore((state) => state.token !== null)
  const acceptedPolicyVersion = usePolicyStore((state) => state.acceptedVersion)
  const inSocialApp = useGlobalStore((state) => state.inSocialApp)

  const sections = useMemo(
    () =>
      collectDiagnostics({
        platform: currentPlatform(),
        softwareName: currentSoftwareName(),
        environment: currentEnvironment(),
        hosts: allHosts(),
        hasLogin,
        userName,
        hasToken,
        acceptedPolicyVersion,
        inSocialApp,
        userAgent: userAgent(),
        now: new Date(),
      }),
    [hasLogin, userName, hasToken, acceptedPolicyVersion, inSocialApp],
  )

  const copy = useCallback(() => {
    Taro.setClipboardData({ data: formatDiagnostics(sections) }).then(
      () => showToast('诊断信息已复制'),
      () => showToast('复制失败，请截图发送'),
    )
  }, [sections])

  return { sections, copy }
}
