import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { MobileField, SmsCodeField } from '@/components/form/fields'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { BIND_TEL_TEXT, PROOF_LABELS, type BindTelModel } from '../hooks/use-bind-tel'
import './profile-form.scss'

export interface BindTelViewProps {
  model: BindTelModel
}

function Proof({ model }: BindTelViewProps) {
  if (model.proof === null) return null
  return (
    <>
      <Text className="profile-form__step">第一步：验证当前身份</Text>
      <View className="profile-form__card">
        {model.proofMethods.length > 1 && (
          <View className="profile-form__switch" role="tablist">
            {model.proofMethods.map((method) => (
              <View
                key={method}
                role="tab"
                aria-selected={method === model.proof}
                className={`profile-form__option${method === model.proof ? ' profile-form__option--active' : ''}`}
                onClick={() => model.setProof(method)}
              >
                {PROOF_LABELS[method]}
              </View>
            ))}
          </View>
        )}
        {model.proof === 'password' ? (
          <FormField
            label="登录密码"
            field={model.password}
            placeholder="请输入当前登录密码"
            type="password"
            maxLength={64}
          />
        ) : (
          <>
            <Text className="profile-form__hint">验证码将发送至 {model.currentMasked}</Text>
            <SmsCodeField field={model.oldCode} sms={model.oldSms} />
          </>
        )}
      </View>
      <Text className="profile-form__step">第二步：绑定新手机号</Text>
    </>
  )
}

/** The number has an account of its own: merge it into this (WeChat) account instead. */
function MergeForm({ model }: BindTelViewProps) {
  return (
    <View className="profile-form">
      <Text className="profile-form__tip profile-form__lead">
        该手机号已注册医影通账号。合并后，该账号的资料将并入当前账号，两边的记录都会保留；其他设备将退出登录。
      </Text>
      <View className="profile-form__card">
        <MobileField field={model.mobile} label="手机号" placeholder="请输入新手机号" />
        <SmsCodeField field={model.mergeCode} sms={model.mergeSms} />
        <FormField
          label="账号密码"
          field={model.mergePassword}
          placeholder="该手机号账号的登录密码（未设置可不填）"
          type="password"
          maxLength={64}
        />
      </View>
      <FormError message={model.formError} />
      <SubmitButton text="确认合并" busy={model.submitting} onClick={model.submitMerge} />
      <Button className="profile-form__secondary" fill="none" block onClick={model.closeMerge}>
        返回
      </Button>
    </View>
  )
}

export function BindTelView({ model }: BindTelViewProps) {
  if (model.done) {
    return (
      <View className="profile-form profile-form--done">
        <View className="profile-form__done-icon">✓</View>
        <Text className="profile-form__done-title">
          {model.done.merged ? BIND_TEL_TEXT.merged : BIND_TEL_TEXT.done}
        </Text>
        {model.done.mobileMasked && (
          <Text className="profile-form__done-text">当前手机号：{model.done.mobileMasked}</Text>
        )}
        <View className="profile-form__done-text" role="status">
          {BIND_TEL_TEXT.signedOut}
        </View>
        <Button className="form-submit" type="primary" block onClick={model.finish}>
          完成
        </Button>
      </View>
    )
  }
  if (model.merging) return <MergeForm model={model} />
  return (
    <View className="profile-form">
      <View className="profile-form__current">
        <Text className="profile-form__current-label">当前手机号</Text>
        <Text className="profile-form__current-value">{model.currentMasked ?? '未绑定'}</Text>
      </View>
      <Proof model={model} />
      <View className="profile-form__card">
        <MobileField field={model.mobile} label="新手机号" placeholder="请输入新手机号" />
        <SmsCodeField field={model.code} sms={model.sms} />
      </View>
      <FormError message={model.formError} />
      {model.canMerge && (
        <Button
          className="profile-form__secondary"
          type="primary"
          fill="outline"
          block
          onClick={model.openMerge}
        >
          这是我的手机号，合并账号
        </Button>
      )}
      <Text className="profile-form__tip">
        验证码将发送到新手机号。绑定后请使用新手机号登录，其他设备将退出登录，原手机号会收到通知。
      </Text>
      <SubmitButton text="确认绑定" busy={model.submitting} onClick={model.submit} />
    </View>
  )
}
