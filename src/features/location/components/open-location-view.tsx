import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { hasCoordinates, hasSystemMap, mapLinks, type Place } from '@/platform/map'
import './location.scss'

export interface OpenLocationViewProps {
  place: Place
  onOpenSystemMap: () => void
  onOpenLink: (url: string) => void
  onCopyAddress: () => void
}

/**
 * 查看位置: the place's name and address; in the mini-program WeChat's map (with 导航 to the phone's
 * map apps), in H5 links that open 高德地图 or 百度地图. Without coordinates the map searches the
 * name and address, and says so.
 */
export function OpenLocationView({
  place,
  onOpenSystemMap,
  onOpenLink,
  onCopyAddress,
}: OpenLocationViewProps) {
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
