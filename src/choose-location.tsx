import { useRouter } from '@tarojs/taro'
import { ChooseLocationView } from './features/location/components/choose-location-view'
import { useChooseLocation } from './features/location/hooks/use-choose-location'
import { decodeParam } from './utils/route-params'

/** /choose-location: pick a place; it goes back to the opener (services/place-pick). */
export default function ChooseLocationPage() {
  const { params } = useRouter()
  const model = useChooseLocation({
    name: decodeParam(params.name),
    address: decodeParam(params.address),
  })
  return <ChooseLocationView model={model} />
}
