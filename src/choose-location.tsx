import { useParams } from '@/hooks/use-params'
import { ChooseLocationView } from './features/location/components/choose-location-view'
import { useChooseLocation } from './features/location/hooks/use-choose-location'

/** /choose-location: pick a place; it goes back to the opener (services/place-pick). */
export default function ChooseLocationPage() {
  const params = useParams()
  const model = useChooseLocation({
    name: params.name ?? '',
    address: params.address ?? '',
  })
  return <ChooseLocationView model={model} />
}
