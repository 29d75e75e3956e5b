import { useState } from 'react'
import { getCurrentLocation } from '@/platform/location'
import { chooseOnSystemMap, hasSystemMap, openPermissionSettings } from '@/platform/map'
import { showToast } from '@/platform/ui'
import { back } from '@/services/navigate'
import { announcePlaceChosen } from '@/services/place-pick'

export interface ChooseLocation {
  systemMap: boolean
  name: string
  setName: (text: string) => void
  address: string
  setAddress: (text: string) => void
  latitude: number | null
  longitude: number | null
  problem: string | null
  canOpenSettings: boolean
  locating: boolean
  pickOnMap: () => Promise<void>
  openSettings: () => Promise<void>
  useMyPosition: () => Promise<void>
  confirm: () => void
}

export const PLACE_NAME_REQUIRED = '请填写地点名称或地址'

/** The place chosen goes back to the page that opened /choose-location (services/place-pick). */
export function useChooseLocation(initial: { name?: string; address?: string }): ChooseLocation {
  const [name, setName] = useState(initial.name ?? '')
  const [address, setAddress] = useState(initial.address ?? '')
  const [latitude, setLatitude] = useState<number | null>(null)
  const [longitude, setLongitude] = useState<number | null>(null)
  const [problem, setProblem] = useState<string | null>(null)
  const [canOpenSettings, setCanOpenSettings] = useState(false)
  const [locating, setLocating] = useState(false)

  const pickOnMap = async () => {
    const outcome = await chooseOnSystemMap()
    if (outcome.status === 'cancelled') return
    if (outcome.status !== 'ok') {
      setProblem(outcome.message)
      setCanOpenSettings(outcome.status === 'denied')
      return
    }
    setProblem(null)
    setCanOpenSettings(false)
    setName(outcome.place.name)
    setAddress(outcome.place.address)
    setLatitude(outcome.place.latitude)
    setLongitude(outcome.place.longitude)
  }

  // The browser's position is WGS-84, a few hundred metres off on Chinese maps: good enough to
  // start from, and the page says coordinates are optional.
  const useMyPosition = async () => {
    setLocating(true)
    const outcome = await getCurrentLocation()
    setLocating(false)
    if (outcome.status !== 'ok') {
      setProblem(outcome.message)
      return
    }
    setProblem(null)
    setLatitude(Number(outcome.latitude.toFixed(6)))
    setLongitude(Number(outcome.longitude.toFixed(6)))
  }

  const confirm = () => {
    if (!name.trim() && !address.trim()) return showToast(PLACE_NAME_REQUIRED)
    announcePlaceChosen({ name: name.trim(), address: address.trim(), latitude, longitude })
    void back()
  }

  return {
    systemMap: hasSystemMap(),
    name,
    setName,
    address,
    setAddress,
    latitude,
    longitude,
    problem,
    canOpenSettings,
    locating,
    pickOnMap,
    openSettings: openPermissionSettings,
    useMyPosition,
    confirm,
  }
}
