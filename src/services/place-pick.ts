import Taro from '@tarojs/taro'
import type { Place } from '@/platform/map'

/** /choose-location answers its opener through this event (as the hospital picker does). */
export const PLACE_CHOSEN_EVENT = 'place-chosen'

export function announcePlaceChosen(place: Place): void {
  Taro.eventCenter.trigger(PLACE_CHOSEN_EVENT, place)
}

/** Listens for the place chosen on /choose-location; answers the unsubscribe. */
export function onPlaceChosen(handler: (place: Place) => void): () => void {
  Taro.eventCenter.on(PLACE_CHOSEN_EVENT, handler)
  return () => Taro.eventCenter.off(PLACE_CHOSEN_EVENT, handler)
}
