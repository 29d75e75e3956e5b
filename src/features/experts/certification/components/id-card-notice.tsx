import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { EXPERT_MESSAGES } from '@contract/main/experts'
import { navigate } from '@/services/navigate'

/** Why an ID card comes first, and the way to bind one (身份证绑定 comes back here by 返回). */
export function IdCardNotice() {
  return (
    <View className="cert-notice" role="alert">
      <Text className="cert-notice__text">{EXPERT_MESSAGES.idCardMissing}</Text>
      <Text className="cert-notice__sub">
        审核人员会核对身份证姓名与执业证书上的姓名是否一致。绑定后返回本页继续即可。
      </Text>
      <Button
        className="cert-notice__button"
        type="primary"
        size="small"
        onClick={() => void navigate('idCard')}
      >
        去绑定身份证
      </Button>
    </View>
  )
}
