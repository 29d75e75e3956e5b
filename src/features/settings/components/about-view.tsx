import { Text, View } from '@tarojs/components'
import { Cell } from '@nutui/nutui-react-taro'
import { ArrowRight } from '@nutui/icons-react-taro'
import { PRODUCT_NAME } from '@/routes'
import { navigate } from '@/services/navigate'
import type { Resource } from '@/hooks/use-resource'
import { LICENCES } from '../licences'
import './about-view.scss'

export interface AboutViewProps {
  version: Resource<string>
}

const DOCUMENTS = [
  { key: 'agreement', text: '用户协议', route: 'userAgreement' },
  { key: 'privacy', text: '隐私政策', route: 'privacyPolicy' },
] as const

function versionText(version: Resource<string>): string {
  if (version.status === 'loading') return '版本 …'
  if (version.status === 'error') return '版本 未知'
  return `版本 ${version.data}`
}

export function AboutView({ version }: AboutViewProps) {
  return (
    <View className="about">
      <View className="about__brand">
        <View className="about__logo">医</View>
        <Text className="about__name">{PRODUCT_NAME}</Text>
        <Text className="about__version">{versionText(version)}</Text>
        <Text className="about__slogan">您的影像与报告，随身可查；专家会诊，足不出户</Text>
      </View>
      <Cell.Group className="about__group">
        {DOCUMENTS.map((doc) => (
          <Cell
            key={doc.key}
            title={doc.text}
            extra={<ArrowRight size={12} color="#c8c9cc" />}
            clickable
            onClick={() => void navigate(doc.route)}
          />
        ))}
      </Cell.Group>
      <Text className="about__heading">开源软件许可</Text>
      <View className="about__licences">
        {LICENCES.map((item) => (
          <View key={item.name} className="about__licence">
            <View className="about__licence-head">
              <Text className="about__licence-name">
                {item.name} {item.version}
              </Text>
              <Text className="about__licence-type">{item.licence}</Text>
            </View>
            <Text className="about__licence-url">{item.url}</Text>
          </View>
        ))}
      </View>
      <Text className="about__footer">本应用使用上述开源软件，并遵守其许可证条款</Text>
    </View>
  )
}
