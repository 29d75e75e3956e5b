import { Text, View } from '@tarojs/components'
import { Button, Radio } from '@nutui/nutui-react-taro'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { GENDER_OPTIONS, type Gender, type RegInfoView as Model } from '../hooks/use-reg-info'
import './auth-form.scss'

export function RegInfoView({ view }: { view: Model }) {
  return (
    <View className="auth-page reg-info">
      <View className="auth-page__inner">
        <Text className="auth-page__intro">
          注册成功！完善以下信息，也可以跳过，稍后在“个人信息”中修改。
        </Text>
        <FormField label="昵称" field={view.nickname} placeholder="请输入昵称" maxLength={20} />
        <View className="form-field">
          <View className="form-field__row">
            <Text className="form-field__label">性别</Text>
            <Radio.Group
              direction="horizontal"
              value={view.gender}
              onChange={(value) => view.setGender(value as Gender)}
            >
              {GENDER_OPTIONS.map((option) => (
                <Radio key={option.value} value={option.value}>
                  {option.label}
                </Radio>
              ))}
            </Radio.Group>
          </View>
        </View>
        <FormError message={view.error} />
        <SubmitButton text="保存" busyText="保存中…" busy={view.submitting} onClick={view.save} />
        <Button
          className="auth-page__secondary"
          fill="none"
          block
          disabled={view.submitting}
          onClick={view.skip}
        >
          跳过
        </Button>
      </View>
    </View>
  )
}
