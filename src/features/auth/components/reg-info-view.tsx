import { Text, View } from '@tarojs/components'
import { Button, Radio } from '@nutui/nutui-react-taro'
import { GENDER_OPTIONS, type Gender, type RegInfoView as Model } from '../hooks/use-reg-info'
import { FormError } from './form-error'
import { FormField } from './form-field'
import './auth-form.scss'

export function RegInfoView({ view }: { view: Model }) {
  return (
    <View className="auth-page reg-info">
      <View className="auth-page__inner">
        <Text className="auth-page__intro">
          注册成功！完善以下信息，方便医生称呼您。也可以跳过，稍后在“个人信息”中修改。
        </Text>
        <FormField label="昵称" field={view.nickname} placeholder="请输入昵称" maxLength={20} />
        <View className="auth-field">
          <View className="auth-field__row">
            <Text className="auth-field__label">性别</Text>
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
        <Button
          className="auth-page__submit"
          type="primary"
          block
          loading={view.submitting}
          disabled={view.submitting}
          onClick={view.save}
        >
          {view.submitting ? '保存中...' : '保存'}
        </Button>
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
