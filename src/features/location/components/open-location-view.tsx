import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import {
  canLocate,
  hasCoordinates,
  hasSystemMap,
  MAP_MESSAGES,
  mapLinks,
  type Place,
} from '@/platform/map'
import './location.scss'

export interface OpenLocationViewProps {
  place: Place
  onOpenSystemMap: () => void
  onOpenLink: (url: string) => void
  onCopyAddress: () => void
  onBack: () => void
}

/**
 * 查看位置: the place's name and address; in the mini-program WeChat's map (with 导航 to the phone's
 * map apps), in H5 links that open 高德地图 or 百度地图. Without coordinates the map searches the
 * name and address, and says so; with neither (a broken link) there is nothing to show on a map,
 * and the page says that instead of offering maps.
 */
export function OpenLocationView({
  place,
  onOpenSystemMap,
  onOpenLink,
  onCopyAddress,
  onBack,
}: OpenLocationViewProps) {
  if (!canLocate(place)) {
    return (
      <View className="location">
        <View className="location__card">
          <Text className="location__name">{MAP_MESSAGES.noPlace}</Text>
          <Text className="location__address">
            打开的链接没有带上地点的名称、地址或坐标，无法在地图中查看。请返回后重新打开。
          </Text>
          <View className="location__links">
            <Button type="primary" block onClick={onBack}>
              返回
            </Button>
          </View>
        </View>
      </View>
    )
  }
  const exact = hasCoordinates(place)
  const systemMap = hasSystemMap() && exact
  return (
    <View className="location">
      <View className="location__card">
        <Text className="location__name">{place.name || '未命名地点'}</Text>
        <Text className="location__address">{place.address || '暂无详细地址'}</Text>
        {!exact && (
          <Text className="location__note location__note--warn">
            该地点暂无精确坐标，地图将按名称和地址搜索，请核对后再出发
          </Text>
        )}
        <View className="location__links">
          {systemMap ? (
            <Button type="primary" block onClick={onOpenSystemMap}>
              在地图中查看并导航
            </Button>
          ) : (
            mapLinks(place).map((link) => (
              <Button key={link.label} type="primary" block onClick={() => onOpenLink(link.url)}>
                用{link.label}打开
              </Button>
            ))
          )}
          {place.address && (
            <Button block onClick={onCopyAddress}>
              复制地址
            </Button>
          )}
        </View>
      </View>
    </View>
  )
}
