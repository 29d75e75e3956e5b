import { Text, View } from '@tarojs/components'
import { Cascader, SearchBar, type CascaderOption } from '@nutui/nutui-react-taro'
import { useMemo, useState } from 'react'
import { HOSPITAL_REQUEST_MESSAGES } from '@contract/main/hospital-requests'
import { PageState } from '@/components/page-state'
import { RefreshList } from '@/components/refresh-list'
import type { HospitalRequest } from '@/services/experts'
import type { DirectoryHospital } from '@/services/hospital-directory'
import {
  type ProvinceNode,
  type Region,
  regionLabel,
  type SelectHospital,
} from '../hooks/use-select-hospital'
import { MissingHospital } from './missing-hospital'
import './select-hospital.scss'

/** Marks "the whole province" inside the cascader. */
const WHOLE = ':whole'
const SEPARATOR = '\u0000'

/**
 * Provinces → cities for the cascader. A province whose only city is itself (北京市) is one step;
 * others start with 全省 so the person may stop at the province.
 */
export function cascaderOptionsOf(provinces: readonly ProvinceNode[]): CascaderOption[] {
  return provinces.map((province) => {
    const only = province.cities.length === 1 && province.cities[0].name === province.name
    if (only) return { text: `${province.name}（${province.count}）`, value: province.name }
    return {
      text: province.name,
      value: province.name,
      children: [
        { text: `全省（${province.count}）`, value: `${province.name}${WHOLE}` },
        ...province.cities.map((city) => ({
          text: `${city.name}（${city.count}）`,
          value: `${province.name}${SEPARATOR}${city.name}`,
        })),
      ],
    }
  })
}

export function regionOfValue(value: string): Region {
  if (value.endsWith(WHOLE)) return { province: value.slice(0, -WHOLE.length), city: null }
  const [province, city] = value.split(SEPARATOR)
  return { province, city: city ?? null }
}

function HospitalRow({ hospital, onPick }: { hospital: DirectoryHospital; onPick: () => void }) {
  return (
    <View
      className="select-hospital__item"
      role="button"
      aria-label={`选择${hospital.name}${hospital.demo ? '（演示）' : ''}`}
      onClick={onPick}
    >
      <View className="select-hospital__name-line">
        <Text className="select-hospital__name">{hospital.name}</Text>
        {hospital.level && <Text className="select-hospital__tag">{hospital.level}</Text>}
        {hospital.demo && (
          <Text className="select-hospital__tag select-hospital__tag--demo">演示</Text>
        )}
      </View>
      <Text className="select-hospital__address">
        {[hospital.regionName ?? `${hospital.province} ${hospital.city}`, hospital.address]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </View>
  )
}

export interface SelectHospitalViewProps {
  model: SelectHospital
  onPick: (hospital: DirectoryHospital) => void
  /** 找不到我的医院？ sent a request: it goes back to the form in the hospital's place. */
  onRequested: (request: HospitalRequest) => void
}

/** 选择医院: search the directory by name, or narrow it by province and city; tap to choose. */
export function SelectHospitalView({ model, onPick, onRequested }: SelectHospitalViewProps) {
  const [choosing, setChoosing] = useState(false)
  /** The server's word that an asked-for name is listed: searched for, and said above the list. */
  const [listed, setListed] = useState<string | null>(null)
  const options = useMemo(() => cascaderOptionsOf(model.regions ?? []), [model.regions])
  const row = (hospital: DirectoryHospital) => (
    <HospitalRow hospital={hospital} onPick={() => onPick(hospital)} />
  )
  return (
    <View className="select-hospital">
      <View className="select-hospital__top">
        <SearchBar
          className="select-hospital__search"
          value={model.keyword}
          placeholder="搜索医院名称"
          maxLength={30}
          clearable
          onChange={(value) => model.setKeyword(value)}
          onClear={() => model.setKeyword('')}
        />
        <View className="select-hospital__region-line">
          <View
            className="select-hospital__region"
            role="button"
            aria-label={`地区：${regionLabel(model.region)}，点击选择省市`}
            onClick={() => model.regions && model.regions.length > 0 && setChoosing(true)}
          >
            {regionLabel(model.region)} ▾
          </View>
          {model.region && (
            <View
              className="select-hospital__link"
              role="button"
              onClick={() => model.setRegion(null)}
            >
              全国
            </View>
          )}
          <Text className="select-hospital__hint">点击医院即选定</Text>
        </View>
        {listed && (
          <View className="select-hospital__listed" role="status">
            {HOSPITAL_REQUEST_MESSAGES.alreadyListed(listed)}
          </View>
        )}
      </View>
      <View className="select-hospital__list">
        {model.region === null ? (
          <RefreshList
            list={model.paged}
            keyOf={(hospital) => hospital.id}
            renderItem={row}
            emptyText={model.keyword ? '没有找到名称相符的医院' : undefined}
          />
        ) : model.inRegion === null ? (
          <PageState status="loading" />
        ) : model.inRegion.length === 0 ? (
          <PageState status="empty" message="该地区没有名称相符的医院" />
        ) : (
          model.inRegion.map((hospital) => <View key={hospital.id}>{row(hospital)}</View>)
        )}
      </View>
      <MissingHospital
        region={model.region}
        keyword={model.keyword}
        onRequested={onRequested}
        onListed={(name) => {
          setListed(name)
          model.setRegion(null)
          model.setKeyword(name)
        }}
      />
      <Cascader
        visible={choosing}
        title="选择地区"
        options={options}
        closeable
        onClose={() => setChoosing(false)}
        onChange={(value) => {
          setChoosing(false)
          const last = value[value.length - 1]
          if (last !== undefined) model.setRegion(regionOfValue(String(last)))
        }}
      />
    </View>
  )
}
