import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import dayjs from 'dayjs'
import { PageState } from '@/components/page-state'
import { ReauthSheet } from '@/components/reauth-sheet'
import {
  DATA_EXPORT_CONTENTS,
  DATA_EXPORT_LINK_HOURS,
  type DataExport,
} from '@/services/data-export'
import type { DataExportModel } from '../hooks/use-data-export'
import './data-export-view.scss'

export const DATA_EXPORT_TEXTS = {
  intro:
    '依据《个人信息保护法》，您可以获取一份自己在医影通中的全部个人信息副本，用于保存或带到其他医院、应用。',
  forWhom: '为谁导出',
  contents: '导出内容',
  rules: `生成后，下载链接仅以短信发送到本账号绑定的手机，${DATA_EXPORT_LINK_HOURS} 小时内有效，只能下载一次。`,
  submit: '申请导出',
  busy: '提交中...',
  sheetTitle: '确认是您本人',
  sheetText: '导出的数据包含身份证号、影像和报告等敏感信息，请先验证身份。',
  history: '导出记录',
  noHistory: '还没有导出记录',
  building: '正在生成，完成后会以短信发送下载链接',
  sentTo: (masked: string) => `下载链接已发送至 ${masked}`,
  expires: (at: string) => `${dayjs(at).format('MM-DD HH:mm')} 前有效，仅可下载一次`,
} as const

function size(bytes: number | null): string {
  if (bytes === null) return ''
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`
}

function ExportRow({ item }: { item: DataExport }) {
  const T = DATA_EXPORT_TEXTS
  return (
    <View className="data-export__row" aria-label={`导出 ${item.stateLabel}`}>
      <View className="data-export__row-head">
        <Text className="data-export__row-who">{item.personLabel}</Text>
        <Text className={`data-export__state data-export__state--${item.state}`}>
          {item.stateLabel}
        </Text>
      </View>
      <Text className="data-export__row-line">
        申请于 {dayjs(item.createdAt).format('YYYY-MM-DD HH:mm')}
        {item.sizeBytes !== null ? ` · ${size(item.sizeBytes)}` : ''}
      </Text>
      {item.state === 'building' && <Text className="data-export__row-line">{T.building}</Text>}
      {item.state === 'sent' && item.mobileMasked && (
        <Text className="data-export__row-line">{T.sentTo(item.mobileMasked)}</Text>
      )}
      {item.state === 'sent' && item.expiresAt && (
        <Text className="data-export__row-line">{T.expires(item.expiresAt)}</Text>
      )}
      {item.message && <Text className="data-export__row-line">{item.message}</Text>}
    </View>
  )
}

/** 导出我的数据: for whom, what the archive holds, the link's rules, 申请导出, and the requests. */
export function DataExportView({ model }: { model: DataExportModel }) {
  const T = DATA_EXPORT_TEXTS
  const { overview } = model
  if (overview.status === 'loading') return <PageState status="loading" />
  if (overview.status === 'error')
    return (
      <PageState status="error" message={overview.message} onRetry={() => void overview.reload()} />
    )
  const { people, items } = overview.data
  const building = items.some((item) => item.state === 'building')
  return (
    <View className="data-export">
      <Text className="data-export__intro">{T.intro}</Text>
      {people.length > 1 && (
        <View className="data-export__section">
          <Text className="data-export__title">{T.forWhom}</Text>
          <View className="data-export__people" role="radiogroup">
            {people.map((person) => (
              <View
                key={person.id}
                role="radio"
                aria-checked={model.personId === person.id}
                className={`data-export__person${model.personId === person.id ? ' data-export__person--on' : ''}`}
                onClick={() => model.setPersonId(person.id)}
              >
                {person.label}
              </View>
            ))}
          </View>
        </View>
      )}
      <View className="data-export__section">
        <Text className="data-export__title">{T.contents}</Text>
        {DATA_EXPORT_CONTENTS.map((line) => (
          <Text key={line} className="data-export__item">
            · {line}
          </Text>
        ))}
        <Text className="data-export__rules">{T.rules}</Text>
      </View>
      <Button
        className="data-export__submit"
        type="primary"
        block
        disabled={building}
        onClick={model.openConfirm}
      >
        {T.submit}
      </Button>
      <View className="data-export__section">
        <Text className="data-export__title">{T.history}</Text>
        {items.length === 0 ? (
          <Text className="data-export__row-line">{T.noHistory}</Text>
        ) : (
          items.map((item) => <ExportRow key={item.id} item={item} />)
        )}
      </View>
      <ReauthSheet
        visible={model.confirming}
        title={T.sheetTitle}
        text={T.sheetText}
        submitText={T.submit}
        busyText={T.busy}
        busy={model.busy}
        error={model.error}
        onClose={model.closeConfirm}
        onSubmit={model.submit}
        sendCode={model.sendCode}
        className="data-export-sheet"
      />
    </View>
  )
}
