import { Text, View } from '@tarojs/components'
import { Input, Popup } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import { DEPARTMENT_MAX } from '@contract/main/experts'
import type { DepartmentsState } from '../hooks/use-certification-form'

export interface DepartmentFieldProps {
  hospitalChosen: boolean
  departments: DepartmentsState
  value: string
  onChange: (value: string) => void
  onBlur: () => void
}

/**
 * 科室: picked from the chosen hospital's own list (names as the hospital writes them); a hospital
 * that lists none lets the person type theirs.
 */
export function DepartmentField({
  hospitalChosen,
  departments,
  value,
  onChange,
  onBlur,
}: DepartmentFieldProps) {
  const [open, setOpen] = useState(false)
  if (!hospitalChosen) {
    return <Text className="cert-form__placeholder">请先选择医院</Text>
  }
  if (departments.status === 'loading' || departments.status === 'none') {
    return <Text className="cert-form__placeholder">科室加载中 ...</Text>
  }
  if (departments.status === 'error') {
    return (
      <View className="cert-form__link" role="button" onClick={departments.retry}>
        科室加载失败，点此重试
      </View>
    )
  }
  if (departments.departments.length === 0) {
    return (
      <Input
        className="cert-form__input"
        value={value}
        placeholder="该医院未列出科室，请填写您的科室"
        maxLength={DEPARTMENT_MAX}
        clearable
        onChange={onChange}
        onBlur={onBlur}
      />
    )
  }
  return (
    <>
      <View
        className="cert-form__picker"
        role="button"
        aria-label={value ? `科室：${value}，点击更换` : '选择科室'}
        onClick={() => setOpen(true)}
      >
        <Text className={value ? 'cert-form__value' : 'cert-form__placeholder'}>
          {value || '请选择科室'}
        </Text>
        <Text className="cert-form__arrow">›</Text>
      </View>
      <Popup
        visible={open}
        position="bottom"
        round
        title="选择科室"
        closeable
        onClose={() => {
          setOpen(false)
          onBlur()
        }}
      >
        <View className="cert-sheet" role="listbox" aria-label="科室">
          {departments.departments.map((department) => (
            <View
              key={department.id}
              role="option"
              aria-selected={department.name === value}
              className={`cert-sheet__item${department.name === value ? ' cert-sheet__item--on' : ''}`}
              onClick={() => {
                onChange(department.name)
                setOpen(false)
              }}
            >
              {department.name}
            </View>
          ))}
        </View>
      </Popup>
    </>
  )
}
