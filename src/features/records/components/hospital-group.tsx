import { Text, View } from '@tarojs/components'
import type { ExamSummary, ImageGroup } from '@/services/records'
import { ExamCard } from './exam-card'
import './hospital-group.scss'

export interface HospitalGroupProps {
  group: ImageGroup
  onOpenExam: (exam: ExamSummary) => void
  /** 查看全部: the group's exams in the in-hospital list (院内查询). */
  onOpenAll: (group: ImageGroup) => void
}

/** One hospital of 我的影像 (or the person's own uploads): its newest exams and a way to the rest. */
export function HospitalGroup({ group, onOpenExam, onOpenAll }: HospitalGroupProps) {
  const name = group.hospital?.name ?? '我上传的影像'
  const more = group.examCount - group.latest.length
  return (
    <View className="hospital-group">
      <View className="hospital-group__head" onClick={() => onOpenAll(group)}>
        <View className="hospital-group__name-line">
          <Text className="hospital-group__name">{name}</Text>
          {group.unreadReports > 0 && (
            <Text className="hospital-group__unread">{group.unreadReports} 份新报告</Text>
          )}
        </View>
        <Text className="hospital-group__count">
          共 {group.examCount} 次检查
          {group.latestStudyDate ? ` · 最近 ${group.latestStudyDate}` : ''}
        </Text>
      </View>
      {group.latest.map((exam) => (
        <ExamCard key={exam.id} exam={exam} showHospital={false} onOpen={onOpenExam} />
      ))}
      <View className="hospital-group__all" onClick={() => onOpenAll(group)}>
        {more > 0 ? `查看全部 ${group.examCount} 次检查` : '按日期、类型查询'} ›
      </View>
    </View>
  )
}
