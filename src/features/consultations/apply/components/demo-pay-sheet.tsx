import { Text, View } from '@tarojs/components'
import { Button, Popup } from '@nutui/nutui-react-taro'
import { yuanOf } from '@/services/consultations'
import type { PayModel } from '../hooks/use-pay'
import './apply.scss'

export const DEMO_PAY_NOTICE = '演示支付：不会产生真实扣款'

/**
 * The demo provider's payment page, as a sheet: it says plainly that no money moves, the amount,
 * and 确认支付, which goes through the same notification and settlement a real payment does.
 */
export function DemoPaySheet({ pay }: { pay: PayModel }) {
  return (
    <Popup
      visible={pay.demo !== null}
      position="bottom"
      round
      title="演示支付"
      onClose={pay.closeDemo}
    >
      {pay.demo && (
        <View className="demo-pay">
          <View className="demo-pay__notice" role="note">
            {DEMO_PAY_NOTICE}
          </View>
          <Text className="demo-pay__amount">¥{yuanOf(pay.demo.amountFen)}</Text>
          <Text className="demo-pay__hint">
            这是演示环境：确认后订单按已支付处理，专家端会收到这条咨询
          </Text>
          <Button
            className="demo-pay__confirm"
            type="primary"
            block
            loading={pay.busy}
            disabled={pay.busy}
            onClick={() => void pay.confirmDemo()}
          >
            确认支付
          </Button>
          <Text className="demo-pay__cancel" onClick={pay.closeDemo}>
            暂不支付
          </Text>
        </View>
      )}
    </Popup>
  )
}
