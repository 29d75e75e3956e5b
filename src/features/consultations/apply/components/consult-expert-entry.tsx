import { Text, View } from '@tarojs/components'
import './apply.scss'

/**
 * 咨询专家 on 影像详情 / 报告详情: the way to put this record in front of an expert (找专家, then the
 * expert's page, then 选择会诊方式 with the record already chosen).
 */
export function ConsultExpertEntry({ onClick }: { onClick: () => void }) {
  return (
    <View className="consult-entry" role="button" onClick={onClick}>
      <View className="consult-entry__text">
        <Text className="consult-entry__title">咨询专家</Text>
        <Text className="consult-entry__hint">请认证专家解读这份资料（健康咨询，不开具处方）</Text>
      </View>
      <Text className="consult-entry__go">找专家 ›</Text>
    </View>
  )
}
