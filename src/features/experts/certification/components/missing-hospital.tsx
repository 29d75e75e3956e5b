import { Text, View } from '@tarojs/components'
import { navigate } from '@/services/navigate'

/**
 * 找不到我的医院？ Until the hospital-request call exists (issue 20), the way is 意见反馈 with the
 * hospital's name; an operator adds it to the directory. One component, so the request form can
 * take its place without touching the picker.
 */
export function MissingHospital() {
  return (
    <View className="missing-hospital">
      <Text className="missing-hospital__title">找不到我的医院？</Text>
      <Text className="missing-hospital__text">
        请在「意见反馈」中写下医院全称和所在城市，运营人员核实后会把它加入医院目录，届时再回来选择即可。
      </Text>
      <View
        className="missing-hospital__link"
        role="link"
        onClick={() => void navigate('feedback')}
      >
        去意见反馈 ›
      </View>
    </View>
  )
}
