import Taro, { useLoad } from '@tarojs/taro'
import { useParams } from '@/hooks/use-params'
import { OpenLocationView } from './features/location/components/open-location-view'
import { openSystemMap, type Place } from './platform/map'
import { back } from './services/navigate'
import { showToast } from './platform/ui'
import { openAsPage } from './platform/web-page'

function placeOf(params: Record<string, string | undefined>): Place {
  const latitude = Number(params.lat)
  const longitude = Number(params.lng)
  const exact = params.lat && params.lng && Number.isFinite(latitude) && Number.isFinite(longitude)
  return {
    name: params.name ?? '',
    address: params.address ?? '',
    latitude: exact ? latitude : null,
    longitude: exact ? longitude : null,
  }
}

/** /open-location?name=&address=&lat=&lng=: a place on the map (导航 to a hospital). */
export default function OpenLocationPage() {
  const place = placeOf(useParams())
  // In the mini-program the map opens at once; closing it comes back to this page.
  useLoad(() => void openSystemMap(place))
  return (
    <OpenLocationView
      place={place}
      onOpenSystemMap={() => void openSystemMap(place)}
      onOpenLink={(url) => {
        if (!openAsPage(url)) showToast('请复制地址后在地图应用中搜索')
      }}
      onBack={() => void back()}
      onCopyAddress={() =>
        void Taro.setClipboardData({ data: `${place.name} ${place.address}`.trim() }).then(
          () => showToast('地址已复制'),
          () => showToast('复制失败，请长按地址手动复制'),
        )
      }
    />
  )
}
