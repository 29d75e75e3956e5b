import { ScrollView, Text, View } from '@tarojs/components'
import { Popup } from '@nutui/nutui-react-taro'
import { ArrowDown } from '@nutui/icons-react-taro'
import { useState } from 'react'
import {
  CONSULT_SERVICES,
  EXPERT_SERVICE_RULES,
  EXPERT_TITLE_LABELS,
  EXPERT_TITLES,
  type ExpertFilters,
} from '@/services/expert-profiles'
import type { ExpertFilter } from '../hooks/use-experts'

type Sheet = 'department' | 'region' | 'title' | 'service'

const ANY = '不限'

interface Choice<V extends string> {
  value: V | undefined
  label: string
}

function ChoiceList<V extends string>({
  choices,
  value,
  onPick,
  label,
}: {
  choices: readonly Choice<V>[]
  value: V | '' | undefined
  onPick: (value: V | undefined) => void
  label: string
}) {
  return (
    <ScrollView className="expert-sheet__list" scrollY aria-label={label}>
      {choices.map((choice) => {
        const on = choice.value === value
        return (
          <View
            key={choice.value ?? ''}
            role="option"
            aria-selected={on}
            className={`expert-sheet__choice${on ? ' expert-sheet__choice--on' : ''}`}
            onClick={() => onPick(choice.value)}
          >
            <Text>{choice.label}</Text>
          </View>
        )
      })}
    </ScrollView>
  )
}

function withAny<V extends string>(
  values: readonly V[],
  labelOf: (value: V) => string = (value) => value,
): Choice<V>[] {
  return [
    { value: undefined, label: ANY },
    ...values.map((value) => ({ value, label: labelOf(value) })),
  ]
}

export interface ExpertFilterBarProps {
  filter: ExpertFilter
  choices: ExpertFilters
  onChange: (filter: ExpertFilter) => void
}

/**
 * 科室, 地区, 职称 and 服务 as one row of buttons, each opening a sheet of single choices (不限
 * first); 地区 picks a province, then one of its cities. A button shows what is chosen.
 */
export function ExpertFilterBar({ filter, choices, onChange }: ExpertFilterBarProps) {
  const [open, setOpen] = useState<Sheet | null>(null)
  // The province looked at in the 地区 sheet, before a city (or 全省) is picked.
  const [province, setProvince] = useState<string | undefined>(filter.province)
  const close = () => setOpen(null)
  const pick = (next: ExpertFilter) => {
    close()
    onChange(next)
  }

  const buttons: { key: Sheet; label: string; chosen: string | undefined }[] = [
    { key: 'department', label: '科室', chosen: filter.department },
    {
      key: 'region',
      label: '地区',
      chosen: filter.city ?? filter.province,
    },
    {
      key: 'title',
      label: '职称',
      chosen: filter.title ? EXPERT_TITLE_LABELS[filter.title] : undefined,
    },
    {
      key: 'service',
      label: '服务',
      chosen: filter.service ? EXPERT_SERVICE_RULES[filter.service].label : undefined,
    },
  ]
  const cities = choices.regions.find((region) => region.province === province)?.cities ?? []

  return (
    <View className="expert-filters">
      <View className="expert-filters__bar" role="toolbar" aria-label="筛选专家">
        {buttons.map((button) => (
          <View
            key={button.key}
            role="button"
            aria-label={`${button.label}：${button.chosen ?? ANY}`}
            aria-expanded={open === button.key}
            className={`expert-filters__button${button.chosen ? ' expert-filters__button--on' : ''}`}
            onClick={() => {
              if (button.key === 'region') setProvince(filter.province)
              setOpen(button.key)
            }}
          >
            <Text className="expert-filters__text">{button.chosen ?? button.label}</Text>
            <ArrowDown size={10} />
          </View>
        ))}
      </View>

      <Popup
        visible={open !== null}
        position="bottom"
        round
        title={open ? buttons.find((button) => button.key === open)?.label : ''}
        onClose={close}
      >
        <View className="expert-sheet">
          {open === 'department' && (
            <ChoiceList
              label="科室"
              choices={withAny(choices.departments)}
              value={filter.department}
              onPick={(department) => pick({ ...filter, department })}
            />
          )}
          {open === 'title' && (
            <ChoiceList
              label="职称"
              choices={withAny(EXPERT_TITLES, (title) => EXPERT_TITLE_LABELS[title])}
              value={filter.title}
              onPick={(title) => pick({ ...filter, title })}
            />
          )}
          {open === 'service' && (
            <ChoiceList
              label="服务"
              choices={withAny(CONSULT_SERVICES, (service) => EXPERT_SERVICE_RULES[service].label)}
              value={filter.service}
              onPick={(service) => pick({ ...filter, service })}
            />
          )}
          {open === 'region' && (
            <View className="expert-sheet__columns">
              <ChoiceList
                label="省份"
                choices={withAny(choices.regions.map((region) => region.province))}
                value={province}
                onPick={(next) => {
                  if (next === undefined) pick({ ...filter, province: undefined, city: undefined })
                  else setProvince(next)
                }}
              />
              {province !== undefined && (
                <ChoiceList
                  label="城市"
                  choices={[
                    { value: undefined, label: `${province}全部` },
                    ...cities.map((city) => ({ value: city, label: city })),
                  ]}
                  value={filter.province === province ? filter.city : ''}
                  onPick={(city) => pick({ ...filter, province, city })}
                />
              )}
            </View>
          )}
        </View>
      </Popup>
    </View>
  )
}
