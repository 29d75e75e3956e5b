import { Text, View } from '@tarojs/components'
import { Button, Checkbox, Popup } from '@nutui/nutui-react-taro'
import { useEffect, useState } from 'react'
import './select-sheet.scss'

export interface SelectOption {
  id: string
  name: string
  /** Under the name: 3 次检查 · 最近 2026-11-20 */
  note: string
}

export interface SelectSheetProps {
  visible: boolean
  title: string
  options: readonly SelectOption[] | null
  /** Ids chosen now; empty = all. */
  selected: readonly string[]
  onConfirm: (ids: string[]) => void
  onClose: () => void
}

/**
 * 选择: a bottom sheet of checkboxes. Choosing nothing, or everything, means all, so the sheet can
 * never leave the page with nothing to show.
 */
export function SelectSheet({
  visible,
  title,
  options,
  selected,
  onConfirm,
  onClose,
}: SelectSheetProps) {
  const [picked, setPicked] = useState<string[]>([...selected])
  useEffect(() => {
    if (visible) setPicked([...selected])
  }, [visible, selected])

  const toggle = (id: string) =>
    setPicked((current) =>
      current.includes(id) ? current.filter((one) => one !== id) : [...current, id],
    )
  const all = options ?? []

  return (
    <Popup visible={visible} position="bottom" round title={title} onClose={onClose}>
      <View className="select-sheet">
        {options === null && <Text className="select-sheet__note">加载中 ...</Text>}
        {options !== null && options.length === 0 && (
          <Text className="select-sheet__note">~ 空空如也 ~</Text>
        )}
        <View className="select-sheet__list">
          {all.map((option) => (
            <View key={option.id} className="select-sheet__item" onClick={() => toggle(option.id)}>
              <Checkbox
                className="select-sheet__box"
                checked={picked.includes(option.id)}
                onChange={() => toggle(option.id)}
              />
              <View className="select-sheet__text">
                <Text className="select-sheet__name">{option.name}</Text>
                <Text className="select-sheet__note">{option.note}</Text>
              </View>
            </View>
          ))}
        </View>
        <View className="select-sheet__actions">
          <Button className="select-sheet__button" onClick={() => setPicked([])}>
            全部
          </Button>
          <Button
            className="select-sheet__button"
            type="primary"
            onClick={() => onConfirm(picked.length === all.length ? [] : picked)}
          >
            确定{picked.length > 0 && picked.length < all.length ? `（${picked.length}）` : ''}
          </Button>
        </View>
      </View>
    </Popup>
  )
}
