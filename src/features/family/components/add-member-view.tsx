import { Text, View } from '@tarojs/components'
import { Button, Checkbox } from '@nutui/nutui-react-taro'
import { MobileField, SmsCodeField } from '@/components/form/fields'
import { FormError } from '@/components/form/form-error'
import { FormField } from '@/components/form/form-field'
import { SubmitButton } from '@/components/form/submit-button'
import { CHILD_AGE_LIMIT, FAMILY_RELATIONS, FAMILY_RELATION_LABELS } from '@/services/family'
import type { AddAdultModel, AddChildModel } from '../hooks/use-add-member'
import './family.scss'

/** 添加儿童: name, ID number, the guardian's statement and what the law asks of us. */
export function AddChildView({ model, onCancel }: { model: AddChildModel; onCancel: () => void }) {
  const { form } = model
  return (
    <View className="family family--form">
      <View className="family__card family__card--form">
        <FormField
          label="儿童姓名"
          field={form.field('name')}
          placeholder="与身份证或户口簿一致"
          maxLength={20}
        />
        <FormField
          label="身份证号"
          field={form.field('idNumber')}
          placeholder="儿童的 18 位身份证号"
          type="idcard"
          maxLength={18}
        />
      </View>
      <View className="family__guardian">
        <Checkbox checked={model.guardian} onChange={(value) => model.setGuardian(value)} />
        <Text className="family__guardian-text" onClick={() => model.setGuardian(!model.guardian)}>
          我是该儿童的监护人
        </Text>
      </View>
      {model.guardianError && (
        <View className="family__error" role="alert">
          {model.guardianError}
        </View>
      )}
      <Text className="family__tip">
        仅可添加未满 {CHILD_AGE_LIMIT}{' '}
        周岁的儿童。依据《个人信息保护法》第三十一条，处理不满十四周岁未成年人的个人信息须经其监护人同意。儿童的姓名和身份证号加密保存，仅用于查找医院推送给该儿童的影像与报告，页面只显示部分信息。
      </Text>
      <FormError message={form.submitError} />
      <SubmitButton text="添加" busy={form.submitting} onClick={model.submit} />
      <Button className="family__cancel" fill="none" block onClick={onCancel}>
        返回
      </Button>
    </View>
  )
}

/** 添加成年家人: their phone, how they are related, and the code they received. */
export function AddAdultView({ model, onCancel }: { model: AddAdultModel; onCancel: () => void }) {
  const { form } = model
  return (
    <View className="family family--form">
      <View className="family__card family__card--form">
        <MobileField
          field={form.field('mobile')}
          label="家人手机号"
          placeholder="请输入家人的手机号"
        />
        <SmsCodeField field={form.field('code')} sms={model.sms} />
      </View>
      <Text className="family__section">与您的关系</Text>
      <View className="family__relations">
        {FAMILY_RELATIONS.map((relation) => (
          <Text
            key={relation}
            className={`family__relation${model.relation === relation ? ' family__relation--on' : ''}`}
            onClick={() => model.setRelation(relation)}
          >
            {FAMILY_RELATION_LABELS[relation]}
          </Text>
        ))}
      </View>
      {model.relationError && (
        <View className="family__error" role="alert">
          {model.relationError}
        </View>
      )}
      <Text className="family__tip">
        验证码发送到家人的手机。家人把验证码告诉您，即表示同意您查看其影像与报告；家人可随时在自己的账号中解除。
      </Text>
      <FormError message={form.submitError} />
      <SubmitButton text="添加" busy={form.submitting} onClick={model.submit} />
      <Button className="family__cancel" fill="none" block onClick={onCancel}>
        返回
      </Button>
    </View>
  )
}
