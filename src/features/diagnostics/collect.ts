import type { ServiceName } from '@contract/services'
import type { Environment } from '@/utils/env'

/**
 * What the diagnostics screen shows and copies. Built only from non-secret facts: whether a token
 * exists, never the token; the name the person chose, never their phone or ID number.
 */
export interface DiagnosticRow {
  label: string
  value: string
}

export interface DiagnosticSection {
  title: string
  rows: DiagnosticRow[]
}

export interface DiagnosticInput {
  platform: 'weapp' | 'h5'
  softwareName: string
  environment: Environment
  hosts: Record<ServiceName, string>
  hasLogin: boolean
  userName: string
  hasToken: boolean
  acceptedPolicyVersion: string | null
  inSocialApp: boolean
  userAgent: string | null
  now: Date
}

const ENVIRONMENT_LABELS: Record<keyof Environment, string> = {
  wechat: '微信',
  miniProgramWebView: '小程序 web-view',
  qq: 'QQ',
  weibo: '微博',
  android: 'Android',
  ios: 'iOS',
  dev: '开发版',
}

const yesNo = (value: boolean) => (value ? '是' : '否')

export function collectDiagnostics(input: DiagnosticInput): DiagnosticSection[] {
  const sections: DiagnosticSection[] = [
    {
      title: '运行平台',
      rows: [
        { label: '平台', value: input.platform === 'weapp' ? '微信小程序 (weapp)' : '网页 (h5)' },
        { label: '软件标识', value: input.softwareName },
        { label: '时间', value: input.now.toISOString() },
        ...(input.userAgent ? [{ label: 'User-Agent', value: input.userAgent }] : []),
      ],
    },
    {
      title: '环境检测',
      rows: (Object.keys(ENVIRONMENT_LABELS) as (keyof Environment)[]).map((key) => ({
        label: ENVIRONMENT_LABELS[key],
        value: yesNo(input.environment[key]),
      })),
    },
    {
      title: '服务地址',
      rows: (Object.keys(input.hosts) as ServiceName[]).map((service) => ({
        label: service,
        // The reference server answers on the page's own origin: say so rather than print ''.
        value: input.hosts[service] === '' ? '（与页面同源）' : input.hosts[service],
      })),
    },
    {
      title: '存储状态',
      rows: [
        { label: '已登录', value: yesNo(input.hasLogin) },
        { label: '用户名', value: input.userName === '' ? '（无）' : input.userName },
        { label: '登录凭证', value: input.hasToken ? '已保存' : '无' },
        { label: '已同意隐私政策版本', value: input.acceptedPolicyVersion ?? '（未同意）' },
        { label: '社交 App 内打开', value: yesNo(input.inSocialApp) },
      ],
    },
  ]
  return sections
}

/** Plain text for 复制诊断信息, pasted into a support chat. */
export function formatDiagnostics(sections: readonly DiagnosticSection[]): string {
  return sections
    .map((section) =>
      [`【${section.title}】`, ...section.rows.map((row) => `${row.label}: ${row.value}`)].join(
        '\n',
      ),
    )
    .join('\n\n')
}
