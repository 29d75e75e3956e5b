import { Image, Text, View } from '@tarojs/components'
import { Switch } from '@nutui/nutui-react-taro'
import { mediaUrl } from '@/services/media'
import { operatorApi, type OperatorFeature } from '@/services/operator'
import { act } from '../hooks/use-operator'

/** The apps page's features: switched off, one leaves 应用中心 at once, without a release. */
export function FeaturesPanel({
  features,
  reload,
}: {
  features: OperatorFeature[]
  reload: () => Promise<void>
}) {
  return (
    <View className="operator__list">
      <Text className="operator__hint">关闭后，用户的应用中心立即不再显示该功能。</Text>
      {features.map((feature) => (
        <View key={feature.key} className="operator__row operator__row--inline">
          <Image className="operator__icon" src={mediaUrl(feature.iconPath)} />
          <Text className="operator__title operator__grow">{feature.name}</Text>
          <Switch
            checked={feature.enabled}
            aria-label={`${feature.name}${feature.enabled ? '已开启' : '已关闭'}`}
            onChange={(enabled) =>
              void act(
                () => operatorApi.setFeature(feature.key, enabled),
                enabled ? '已开启' : '已关闭',
                reload,
              )
            }
          />
        </View>
      ))}
    </View>
  )
}
