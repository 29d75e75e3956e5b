import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { navigate } from '@/services/navigate'
import type { ClaimQueryView as ClaimQueryModel } from '../hooks/use-claim-query'
import { ClaimCodeStep } from './claim-code-step'
import { HospitalPicker } from './hospital-picker'
import './claim.scss'

const STEPS = ['填写检查信息', '验证手机号', '完成'] as const

function Steps({ current }: { current: 0 | 1 | 2 }) {
  return (
    <View className="claim-steps">
      {STEPS.map((label, index) => (
        <View
          key={label}
          className={`claim-steps__item${index <= current ? ' claim-steps__item--active' : ''}`}
        >
          <Text className="claim-steps__dot">{index + 1}</Text>
          <Text className="claim-steps__label">{label}</Text>
        </View>
      ))}
    </View>
  )
}

/** 影像查询 (/pages/personalImage/index-weixin). */
export function ClaimQueryView({ view }: { view: ClaimQueryModel }) {
  const { state } = view
  if (state.step === 'done') {
    return (
      <View className="claim-page">
        <Steps current={2} />
        <View className="claim-card claim-done">
          <View className="claim-done__icon">✓</View>
          <Text className="claim-done__title">
            {state.already ? '该检查已在您的影像中' : '已添加到我的影像'}
          </Text>
          <Text className="claim-done__text">
            {state.already
              ? '无需重复添加，可直接查看影像和报告。'
              : '以后在“个人影像”和“个人报告”中都能找到这次检查。'}
          </Text>
          <Button
            className="claim-done__button"
            type="primary"
            block
            onClick={() => void navigate('imageDetail', { id: state.examId })}
          >
            查看影像
          </Button>
          {state.reportId !== null && (
            <Button
              className="claim-done__button"
              block
              onClick={() => void navigate('reportDetail', { id: state.reportId ?? undefined })}
            >
              查看报告
            </Button>
          )}
          <Text className="claim-done__link" onClick={view.restart}>
            继续查询其他检查
          </Text>
        </View>
      </View>
    )
  }
  if (state.step === 'code') {
    return (
      <View className="claim-page">
        <Steps current={1} />
        <View className="claim-card">
          <View className="claim-summary">
            <Text className="claim-summary__label">医院</Text>
            <Text className="claim-summary__value">{view.hospital?.name}</Text>
            <Text className="claim-summary__label">检查号</Text>
            <Text className="claim-summary__value">{view.examNumber.value.trim()}</Text>
          </View>
          <ClaimCodeStep mobileMasked={state.start.mobileMasked} proof={view.proof} />
          <Text className="claim-card__back" onClick={view.back}>
            返回修改检查信息
          </Text>
        </View>
      </View>
    )
  }
  return (
    <View className="claim-page">
      <Steps current={0} />
      <View className="claim-card">
        <Text className="claim-card__intro">
          按检查单或胶片袋上的信息查找您在医院做过的检查，验证医院登记的手机号后即可在线查看影像和报告。
        </Text>
        <View className="form-field">
          <View
            className={`form-field__row claim-hospital${view.hospitalError ? ' form-field__row--error' : ''}`}
            onClick={view.openPicker}
          >
            <Text className="form-field__label">医院</Text>
            <Text
              className={`claim-hospital__value${view.hospital ? '' : ' claim-hospital__value--empty'}`}
            >
              {view.hospital?.name ?? '请选择医院'}
            </Text>
            <Text className="claim-hospital__arrow">›</Text>
          </View>
          {view.hospitalError && (
            <View className="form-field__error" role="alert">
              {view.hospitalError}
            </View>
          )}
        </View>
        <FormField
          label="检查号"
          field={view.examNumber}
          placeholder="检查单上的检查号"
          maxLength={64}
        />
        <FormField label="姓名" field={view.name} placeholder="检查时登记的姓名" maxLength={50} />
        <FormError message={view.lookupError} />
        <SubmitButton busy={view.looking} onClick={view.lookup} text="查询" busyText="查询中…" />
        <Text className="claim-card__note">
          已绑定身份证的账号会自动收到本人的检查，无需查询。为保护隐私，信息不匹配时不会提示具体原因。
        </Text>
      </View>
      <HospitalPicker
        visible={view.pickerOpen}
        selectedId={view.hospital?.id ?? null}
        onPick={view.pickHospital}
        onClose={view.closePicker}
      />
    </View>
  )
}
