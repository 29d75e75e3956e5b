import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import type { DiagnosticsModel } from '../hooks/use-diagnostics'
import './diagnostics-view.scss'

export interface DiagnosticsViewProps {
  model: DiagnosticsModel
}

/** 诊断信息: what support asks for first, readable on screen and copied as text. */
export function DiagnosticsView({ model }: DiagnosticsViewProps) {
  return (
    <View className="diagnostics">
      {model.sections.map((section) => (
        <View key={section.title} className="diagnostics__section">
          <Text className="diagnostics__title">{section.title}</Text>
          <View className="diagnostics__card">
            {section.rows.map((row) => (
              <View key={row.label} className="diagnostics__row">
                <Text className="diagnostics__label">{row.label}</Text>
                <Text className="diagnostics__value">{row.value}</Text>
              </View>
            ))}
          </View>
        </View>
      ))}
      <Text className="diagnostics__note">不含登录凭证、密码等敏感信息，可放心发送给客服</Text>
      <View className="diagnostics__actions">
        <Button type="primary" block onClick={model.copy}>
          复制诊断信息
        </Button>
      </View>
    </View>
  )
}
