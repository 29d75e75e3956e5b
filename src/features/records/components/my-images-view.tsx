import { Text, View } from '@tarojs/components'
import { useState } from 'react'
import { RefreshList } from '@/components/refresh-list'
import { PersonSwitcher } from '@/components/person-switcher'
import type { ExamSummary, ImageGroup } from '@/services/records'
import { UPLOADS_GROUP, type MyImages } from '../hooks/use-my-images'
import { HospitalGroup } from './hospital-group'
import { SelectSheet, type SelectOption } from './select-sheet'
import './my-images-view.scss'

export interface MyImagesViewProps {
  images: MyImages
  onOpenExam: (exam: ExamSummary) => void
  onOpenGroup: (group: ImageGroup) => void
  /** 查找医院: the region and hospital picker. */
  onFindHospital: () => void
  /** 影像查询 (by hospital, exam number and name); absent while that page is not built. */
  onQuery?: () => void
}

/** 我的影像: exams grouped by hospital; 选择 narrows the page to some hospitals. */
export function MyImagesView({
  images,
  onOpenExam,
  onOpenGroup,
  onFindHospital,
  onQuery,
}: MyImagesViewProps) {
  const [choosing, setChoosing] = useState(false)
  const options: SelectOption[] | null =
    images.hospitals === null
      ? null
      : [
          ...images.hospitals.map((hospital) => ({
            id: hospital.id,
            name: hospital.name,
            note: `${hospital.examCount} 次检查${hospital.latestStudyDate ? ` · 最近 ${hospital.latestStudyDate}` : ''}`,
          })),
          { id: UPLOADS_GROUP, name: '我上传的影像', note: '从手机上传的 DICOM 影像' },
        ]
  const chosenNames = images.selected
    .map((id) => options?.find((option) => option.id === id)?.name)
    .filter((name): name is string => Boolean(name))

  return (
    <View className="my-images">
      <PersonSwitcher />
      <View className="my-images__bar">
        <Text className="my-images__scope">
          {images.selected.length === 0 ? '全部医院' : `已选：${chosenNames.join('、')}`}
        </Text>
        {images.selected.length > 0 && (
          <Text className="my-images__action" onClick={() => images.select([])}>
            清除
          </Text>
        )}
        <Text className="my-images__action" onClick={() => setChoosing(true)}>
          选择
        </Text>
        <Text className="my-images__action" onClick={onFindHospital}>
          查找医院
        </Text>
      </View>
      <RefreshList
        list={images.groups}
        keyOf={(group) => group.hospital?.id ?? UPLOADS_GROUP}
        renderItem={(group) => (
          <HospitalGroup group={group} onOpenExam={onOpenExam} onOpenAll={onOpenGroup} />
        )}
        emptyText={images.selected.length > 0 ? '所选医院暂无检查' : undefined}
      />
      {images.groups.status === 'ready' &&
        images.groups.items.length === 0 &&
        images.selected.length === 0 && (
          <View className="my-images__hint">
            <Text className="my-images__hint-text">
              实名认证后，医院推送的检查会自动出现在这里。
            </Text>
            {onQuery && (
              <Text className="my-images__hint-link" onClick={onQuery}>
                用检查号查询影像 ›
              </Text>
            )}
          </View>
        )}
      <SelectSheet
        visible={choosing}
        title="选择医院"
        options={options}
        selected={images.selected}
        onClose={() => setChoosing(false)}
        onConfirm={(ids) => {
          setChoosing(false)
          images.select(ids)
        }}
      />
    </View>
  )
}
