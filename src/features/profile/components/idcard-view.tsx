import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { TextAreaField } from '@/components/form/text-area-field'
import { PageState } from '@/components/page-state'
import type { BoundCard, IdCardAppeal } from '@/services/profile'
import { timeFormat } from '@/utils/time'
import type { IdCardModel } from '../hooks/use-idcard'
import './idcard-view.scss'
import './profile-form.scss'

export interface IdCardViewProps {
  model: IdCardModel
}

function Appeals({ appeals }: { appeals: IdCardAppeal[] }) {
  if (appeals.length === 0) return null
  return (
    <View className="idcard-appeals">
      <Text className="profile-form__step">我的申诉</Text>
      {appeals.map((appeal) => (
        <View key={appeal.id} className="idcard-appeals__item">
          <View className="idcard-appeals__head">
            <Text className="idcard-appeals__number">{appeal.numberMasked}</Text>
            <Text className={`idcard-appeals__status idcard-appeals__status--${appeal.status}`}>
              {appeal.statusLabel}
            </Text>
          </View>
          <Text className="idcard-appeals__date">
            提交于 {timeFormat(appeal.createdAt, 'yyyy-mm-dd hh:MM')}
          </Text>
          {appeal.operatorNote && (
            <Text className="idcard-appeals__note">处理说明：{appeal.operatorNote}</Text>
          )}
        </View>
      ))}
    </View>
  )
}

function BoundCardView({ card, model }: { card: BoundCard; model: IdCardModel }) {
  const verified = card.status === 'verified'
  return (
    <View className="profile-form">
      <View className="idcard-card">
        <View className="idcard-card__head">
          <Text className="idcard-card__kind">居民身份证</Text>
          <Text className="idcard-card__badge">{verified ? '已实名' : '已绑定'}</Text>
        </View>
        <Text className="idcard-card__holder">{card.holderMasked}</Text>
        <Text className="idcard-card__number">{card.numberMasked}</Text>
        <Text className="idcard-card__date">绑定于 {timeFormat(card.createdAt, 'yyyy-mm-dd')}</Text>
      </View>
      {!verified && (
        <>
          <Text className="profile-form__tip">
            已绑定表示号码格式与校验位正确；实名核验由核验服务确认姓名与号码一致后显示“已实名”。
          </Text>
          <FormError message={model.verifyError} />
          <SubmitButton
            text="去实名核验"
            busyText="核验中…"
            busy={model.verifying}
            onClick={model.verify}
          />
        </>
      )}
      <Text className="profile-form__tip">
        身份信息已加密保存。医院推送的、姓名和身份证号与此一致的影像和报告，会显示在个人影像和个人报告中。如需更换，请联系客服。
      </Text>
      <Appeals appeals={model.appeals} />
    </View>
  )
}

function AppealForm({ model }: IdCardViewProps) {
  return (
    <View className="profile-form">
      <Text className="profile-form__tip idcard-appeal__intro">
        该身份证号已被其他账号绑定。如果这是您本人的身份证，请说明情况并留下联系方式，工作人员核实后会联系您。
      </Text>
      <View className="profile-form__card">
        <TextAreaField
          label="申诉说明"
          field={model.reason}
          placeholder="例如：此身份证是我本人的，从未在其他账号绑定过"
          maxLength={500}
        />
        <FormField
          label="联系方式"
          field={model.contact}
          placeholder="手机号或邮箱"
          maxLength={80}
        />
      </View>
      <FormError message={model.appealError} />
      <SubmitButton text="提交申诉" busy={model.appealSubmitting} onClick={model.submitAppeal} />
      <Button className="idcard-appeal__back" fill="none" block onClick={model.closeAppeal}>
        返回
      </Button>
    </View>
  )
}

export function IdCardView({ model }: IdCardViewProps) {
  const { state } = model
  if (state.status === 'loading') return <PageState status="loading" />
  if (state.status === 'error') {
    return <PageState status="error" message={state.message} onRetry={model.retry} />
  }
  if (state.status === 'bound') return <BoundCardView card={state.card} model={model} />
  if (state.status === 'appeal') return <AppealForm model={model} />
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
      {model.canAppeal && (
        <Button
          className="idcard-appeal__open"
          type="primary"
          fill="outline"
          block
          onClick={model.openAppeal}
        >
          这是我的身份证，提交申诉
        </Button>
      )}
      <Text className="profile-form__tip">
        绑定身份证后，医院推送的、姓名和身份证号与您一致的检查影像和报告，会显示在个人影像和个人报告中。身份证号加密保存，页面仅显示部分号码。
      </Text>
      <SubmitButton text="提交认证" busy={model.submitting} onClick={model.submit} />
      <Appeals appeals={model.appeals} />
    </View>
  )
}
