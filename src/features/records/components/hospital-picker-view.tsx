import { Text, View } from '@tarojs/components'
import { Cascader, SearchBar, type CascaderOption } from '@nutui/nutui-react-taro'
import { useMemo, useState } from 'react'
import { RefreshList } from '@/components/refresh-list'
import type { AreaNode, ImageHospital } from '@/services/records'
import type { HospitalPicker, PickedRegion } from '../hooks/use-hospital-picker'
import { Tag } from './tags'
import './hospital-picker-view.scss'

export interface HospitalPickerViewProps {
  picker: HospitalPicker
  onPick: (hospital: ImageHospital) => void
  /** Under the search: what tapping a hospital does (选择医院 / 查看该院的检查). */
  hint: string
}

/** Marks a "the whole region" choice inside the cascader, e.g. "全部城市" of a province. */
const WHOLE = ':whole'

/**
 * Provinces → cities → districts as the cascader wants them. Each level starts with "全部…", so the
 * person may stop at a province or a city; a district is as fine as the tree goes.
 */
export function cascaderOptions(
  nodes: readonly AreaNode[],
  labels: string[] = [],
): CascaderOption[] {
  return nodes.map((node) => {
    const children = node.children ?? []
    if (children.length === 0) {
      return { text: `${node.name}（${node.hospitalCount}）`, value: node.code }
    }
    const whole = labels.length === 0 ? '全省' : '全市'
    return {
      text: node.name,
      value: node.code,
      children: [
        { text: `${whole}（${node.hospitalCount}）`, value: `${node.code}${WHOLE}` },
        ...cascaderOptions(children, [...labels, node.name]),
      ],
    }
  })
}

/** The region a cascader path stands for: the deepest real code, named by the path. */
export function regionOfPath(path: readonly CascaderOption[]): PickedRegion | null {
  const last = path[path.length - 1]
  if (!last) return null
  const value = String(last.value)
  const code = value.endsWith(WHOLE) ? value.slice(0, -WHOLE.length) : value
  const names = path
    .filter((node) => !String(node.value).endsWith(WHOLE))
    .map((node) => String(node.text).replace(/（\d+）$/, ''))
  return { code, label: names.join(' ') }
}

function HospitalRow({ hospital, onPick }: { hospital: ImageHospital; onPick: () => void }) {
  return (
    <View className="hospital-finder__item" onClick={onPick}>
      <View className="hospital-finder__name-line">
        <Text className="hospital-finder__name">{hospital.name}</Text>
        {hospital.level && <Tag>{hospital.level}</Tag>}
        {hospital.aiReporting && <Tag tone="ai">AI报告</Tag>}
      </View>
      <Text className="hospital-finder__address">
        {[hospital.regionName ?? `${hospital.province} ${hospital.city}`, hospital.address]
          .filter(Boolean)
          .join(' · ')}
      </Text>
    </View>
  )
}

/** 选择地区或医院: region cascade, search by name, AI mark, current location. */
export function HospitalPickerView({ picker, onPick, hint }: HospitalPickerViewProps) {
  const [choosing, setChoosing] = useState(false)
  const options = useMemo(() => cascaderOptions(picker.areas ?? []), [picker.areas])
  const locating = picker.located.status === 'locating'

  return (
    <View className="hospital-finder">
      <View className="hospital-finder__top">
        <SearchBar
          className="hospital-finder__search"
          value={picker.keyword}
          placeholder="搜索医院名称"
          maxLength={30}
          clearable
          onChange={(value) => picker.setKeyword(value)}
          onClear={() => picker.setKeyword('')}
        />
        <View className="hospital-finder__region-line">
          <Text className="hospital-finder__region" onClick={() => setChoosing(true)}>
            {picker.region ? picker.region.label : '全国'} ▾
          </Text>
          {picker.region && (
            <Text className="hospital-finder__link" onClick={() => picker.setRegion(null)}>
              全国
            </Text>
          )}
          <Text
            className={`hospital-finder__link${locating ? ' hospital-finder__link--busy' : ''}`}
            onClick={picker.locate}
          >
            {locating ? '定位中…' : '定位'}
          </Text>
          <Text
            className={`hospital-finder__ai${picker.aiOnly ? ' hospital-finder__ai--on' : ''}`}
            onClick={() => picker.setAiOnly(!picker.aiOnly)}
          >
            只看AI报告
          </Text>
        </View>
        {(picker.located.status === 'done' || picker.located.status === 'failed') && (
          <Text
            className={`hospital-finder__located hospital-finder__located--${picker.located.status}`}
          >
            {picker.located.message}
          </Text>
        )}
        <Text className="hospital-finder__hint">{hint}</Text>
      </View>
      <View className="hospital-finder__list">
        <RefreshList
          list={picker.hospitals}
          keyOf={(hospital) => hospital.id}
          renderItem={(hospital) => (
            <HospitalRow hospital={hospital} onPick={() => onPick(hospital)} />
          )}
          emptyText={
            picker.keyword || picker.aiOnly || picker.region ? '该条件下没有找到医院' : undefined
          }
        />
      </View>
      <Cascader
        visible={choosing}
        title="选择地区"
        options={options}
        closeable
        onClose={() => setChoosing(false)}
        onChange={(_value, path) => {
          setChoosing(false)
          picker.setRegion(regionOfPath(path))
        }}
      />
    </View>
  )
}
