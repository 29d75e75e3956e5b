import { Text, View } from '@tarojs/components'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { PageState } from '@/components/page-state'
import { timeFormat } from '@/utils/time'
import type { IdCardModel } from '../hooks/use-idcard'
import './idcard-view.scss'
import './profile-form.scss'

export interface IdCardViewProps {
  model: IdCardModel
}

export function IdCardView({ model }: IdCardViewProps) {
  const { state } = model
  if (state.status === 'loading') return <PageState status="loading" />
  if (state.status === 'error') {
    return <PageState status="error" message={state.message} onRetry={model.retry} />
  }
  if (state.status === 'bound') {
    const { card } = state
    return (
      <View className="profile-form">
        <View className="idcard-card">
          <View className="idcard-card__head">
            <Text className="idcard-card__kind">居民身份证</Text>
            <Text className="idcard-card__badge">已实名</Text>
          </View>
          <Text className="idcard-card__holder">{card.holderMasked}</Text>
          <Text className="idcard-card__number">{card.numberMasked}</Text>
          <Text className="idcard-card__date">
            绑定于 {timeFormat(card.createdAt, 'yyyy-mm-dd')}
          </Text>
        </View>
        <Text className="profile-form__tip">
          身份信息已加密保存，仅用于查询您在各医院的影像与报告。如需更换，请联系客服。
        </Text>
      </View>
    )
  }
  return (
    <View className="profile-form">
      <View className="profile-form__card">
        <FormField
          label="真实姓名"
          field={model.realName}
          placeholder="与身份证一致"
          maxLength={20}
        />
        <FormField
          label="身份证号"
          field={model.idNumber}
          placeholder="18 位居民身份证号"
          type="idcard"
          maxLength={18}
        />
      </View>
      <FormError message={model.formError} />
      <Text className="profile-form__tip">
        实名认证后，可查询您在各医院的检查影像与报告。身份证号加密保存，页面仅显示部分号码。
      </Text>
      <SubmitButton text="提交认证" busy={model.submitting} onClick={model.submit} />
    </View>
  )
}
