import { Text, View } from '@tarojs/components'
import { ActionSheet } from '@nutui/nutui-react-taro'
import { useEffect, useState } from 'react'
import { showToast } from '@/platform/ui'
import { listFamily, memberLabel, type Family } from '@/services/family'
import { useAppStore } from '@/stores/app-store'
import { resetToSelf, useCurrentPerson, usePersonStore } from '@/stores/person-store'
import './index.scss'

interface PersonOption {
  [key: string]: string
  name: string
  description: string
  personId: string
}

export const GONE_TEXT = '该家人已解除关系，已切换回本人'

/**
 * 当前就诊人 above 我的影像 and 我的报告: 本人 or a member the person manages. Hidden for someone with
 * no members (nothing to switch); a member no longer in the list sends the page back to 本人.
 */
export function PersonSwitcher() {
  const userId = useAppStore((state) => state.profile?.id ?? null)
  const current = useCurrentPerson()
  const [family, setFamily] = useState<Family | null>(null)
  const [open, setOpen] = useState(false)

  useEffect(() => {
    let live = true
    listFamily().then(
      (answer) => {
        if (!live) return
        setFamily(answer)
        const chosen = usePersonStore.getState().chosen
        if (chosen && !answer.members.some((member) => member.personId === chosen.personId)) {
          resetToSelf()
          showToast(GONE_TEXT)
        }
      },
      // Offline or refused: the lists still show 本人 or the server refuses the member itself.
      () => undefined,
    )
    return () => {
      live = false
    }
  }, [])

  if (family === null || (family.members.length === 0 && current === null)) return null

  const selfName = family.self.nameMasked ? `本人 ${family.self.nameMasked}` : '本人'
  const options: PersonOption[] = [
    { name: selfName, description: current === null ? '当前' : '', personId: '' },
    ...family.members.map((member) => ({
      name: memberLabel(member),
      description: `${member.kind === 'child' ? '儿童' : '成人'}${current?.personId === member.personId ? ' · 当前' : ''}`,
      personId: member.personId,
    })),
  ]

  return (
    <View className="person-switcher">
      <Text className="person-switcher__label">当前就诊人</Text>
      <Text className="person-switcher__name">{current ? current.label : selfName}</Text>
      <Text className="person-switcher__action" onClick={() => setOpen(true)}>
        切换
      </Text>
      <ActionSheet
        visible={open}
        title="选择就诊人"
        options={options}
        cancelText="取消"
        onCancel={() => setOpen(false)}
        onSelect={(_item, index) => {
          setOpen(false)
          const item = options[index]
          if (!item || item.personId === '' || userId === null) resetToSelf()
          else
            usePersonStore.getState().choose({ userId, personId: item.personId, label: item.name })
        }}
      />
    </View>
  )
}
