import { Text, View } from '@tarojs/components'
import { Button, Input } from '@nutui/nutui-react-taro'
import type { ChooseLocation } from '../hooks/use-choose-location'
import './location.scss'

/**
 * 选择位置: WeChat's map picker in the mini-program (with the permission flow); in H5 the name and
 * address typed in, and optionally the browser's position.
 */
export function ChooseLocationView({ model }: { model: ChooseLocation }) {
  return (
    <View className="location">
      <View className="location__card">
        {model.systemMap && (
          <Button type="primary" block onClick={() => void model.pickOnMap()}>
            在地图上选择位置
          </Button>
        )}
        {model.problem && (
          <View className="location__note location__note--warn" role="alert">
            <Text>{model.problem}</Text>
            {model.canOpenSettings && (
              <Button size="small" onClick={() => void model.openSettings()}>
                去设置
              </Button>
            )}
          </View>
        )}
        <Input
          className="location__input"
          value={model.name}
          placeholder="地点名称（如 示例市第一人民医院）"
          maxLength={100}
          onChange={model.setName}
        />
        <Input
          className="location__input"
          value={model.address}
          placeholder="详细地址"
          maxLength={100}
          onChange={model.setAddress}
        />
        <Text className="location__meta">
          {model.latitude !== null && model.longitude !== null
            ? `坐标：${model.latitude.toFixed(5)}, ${model.longitude.toFixed(5)}`
            : '未选择坐标（选填）'}
        </Text>
        {!model.systemMap && (
          <Button block loading={model.locating} onClick={() => void model.useMyPosition()}>
            使用我当前的位置
          </Button>
        )}
        <Button type="primary" block onClick={model.confirm}>
          确定
        </Button>
      </View>
    </View>
  )
}
