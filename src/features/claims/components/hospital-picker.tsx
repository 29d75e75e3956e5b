import { Input, Text, View } from '@tarojs/components'
import { Button, Loading, Popup } from '@nutui/nutui-react-taro'
import { useHospitalSearch } from '../hooks/use-hospital-search'
import type { PickedHospital } from '../hooks/use-claim-query'
import './hospital-picker.scss'

export interface HospitalPickerProps {
  visible: boolean
  selectedId: string | null
  onPick: (hospital: PickedHospital) => void
  onClose: () => void
}

/** 选择医院: search by name, tap one. */
export function HospitalPicker({ visible, selectedId, onPick, onClose }: HospitalPickerProps) {
  const { keyword, setKeyword, state, retry } = useHospitalSearch(visible)
  return (
    <Popup visible={visible} position="bottom" round title="选择医院" onClose={onClose}>
      <View className="hospital-picker">
        <Input
          className="hospital-picker__search"
          value={keyword}
          placeholder="搜索医院名称"
          maxlength={30}
          onInput={(event) => setKeyword(event.detail.value)}
        />
        <View className="hospital-picker__list">
          {state.status === 'loading' && (
            <View className="hospital-picker__note">
              <Loading type="circular">加载中 ...</Loading>
            </View>
          )}
          {state.status === 'error' && (
            <View className="hospital-picker__note" role="alert">
              <Text>{state.message}</Text>
              <Button size="small" type="primary" onClick={retry}>
                重试
              </Button>
            </View>
          )}
          {state.status === 'ready' && state.items.length === 0 && (
            <Text className="hospital-picker__note">~ 空空如也 ~</Text>
          )}
          {state.status === 'ready' &&
            state.items.map((hospital) => (
              <View
                key={hospital.id}
                className={`hospital-picker__item${hospital.id === selectedId ? ' hospital-picker__item--selected' : ''}`}
                onClick={() => onPick({ id: hospital.id, name: hospital.name })}
              >
                <Text className="hospital-picker__name">{hospital.name}</Text>
                <Text className="hospital-picker__place">
                  {[hospital.city, hospital.level].filter(Boolean).join(' · ')}
                </Text>
              </View>
            ))}
          {state.status === 'ready' && state.total > state.items.length && (
            <Text className="hospital-picker__note">输入医院名称查看更多</Text>
          )}
        </View>
      </View>
    </Popup>
  )
}
