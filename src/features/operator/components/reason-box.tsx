import { View } from '@tarojs/components'
import { TextArea } from '@nutui/nutui-react-taro'

export interface ReasonBoxProps {
  value: string
  onChange: (value: string) => void
  /** Says who will read it, e.g. 驳回原因（必填，申请人会在我的消息里看到…）. */
  placeholder: string
  label: string
  max: number
  /** The contract's message for what is wrong, said beside the box (role=alert), or null. */
  problem: string | null
}

/** The one box an operator writes a reason in (驳回, 暂停服务, 不予添加), with its count and message. */
export function ReasonBox({ value, onChange, placeholder, label, max, problem }: ReasonBoxProps) {
  return (
    <>
      <TextArea
        className="operator__area"
        value={value}
        placeholder={placeholder}
        maxLength={max}
        showCount
        aria-label={label}
        onChange={onChange}
      />
      {problem && (
        <View className="expert-review__error" role="alert">
          {problem}
        </View>
      )}
    </>
  )
}
