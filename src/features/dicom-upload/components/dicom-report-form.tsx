import { Picker, Text, View } from '@tarojs/components'
import { Button, Input, TextArea } from '@nutui/nutui-react-taro'
import { useState } from 'react'
import type { SaveDicomReportInput } from '@/services/dicom-upload'
import './dicom-report-form.scss'

export interface DicomReportValues {
  title: string
  hospitalText: string
  studyDate: string
  notes: string
}

export interface DicomReportFormProps {
  initial: DicomReportValues
  saving: boolean
  onSave: (input: Omit<SaveDicomReportInput, 'examId'>) => void
  onCancel: () => void
}

/** save dicom report: what the patient says about an uploaded study; an empty field is cleared. */
export function DicomReportForm({ initial, saving, onSave, onCancel }: DicomReportFormProps) {
  const [values, setValues] = useState(initial)
  const set = (change: Partial<DicomReportValues>) => setValues((v) => ({ ...v, ...change }))
  const orNull = (text: string) => (text.trim() === '' ? null : text.trim())
  return (
    <View className="dicom-report-form">
      <View className="dicom-report-form__row">
        <Text className="dicom-report-form__label">标题</Text>
        <Input
          value={values.title}
          maxLength={50}
          placeholder="如：头颅磁共振"
          onChange={(title) => set({ title })}
        />
      </View>
      <View className="dicom-report-form__row">
        <Text className="dicom-report-form__label">医院</Text>
        <Input
          value={values.hospitalText}
          maxLength={50}
          placeholder="检查所在医院"
          onChange={(hospitalText) => set({ hospitalText })}
        />
      </View>
      <View className="dicom-report-form__row">
        <Text className="dicom-report-form__label">检查日期</Text>
        <Picker
          mode="date"
          value={values.studyDate || ''}
          onChange={(event) => set({ studyDate: String(event.detail.value) })}
        >
          <Text className="dicom-report-form__date">{values.studyDate || '请选择'}</Text>
        </Picker>
      </View>
      <View className="dicom-report-form__row dicom-report-form__row--notes">
        <Text className="dicom-report-form__label">备注</Text>
        <TextArea
          value={values.notes}
          maxLength={500}
          placeholder="如：复查用，医生建议三个月后再查"
          onChange={(notes) => set({ notes })}
        />
      </View>
      <View className="dicom-report-form__actions">
        <Button onClick={onCancel}>取消</Button>
        <Button
          type="primary"
          loading={saving}
          onClick={() =>
            onSave({
              title: orNull(values.title),
              hospitalText: orNull(values.hospitalText),
              studyDate: orNull(values.studyDate),
              notes: orNull(values.notes),
            })
          }
        >
          保存
        </Button>
      </View>
    </View>
  )
}
