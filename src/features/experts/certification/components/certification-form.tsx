import { Text, View } from '@tarojs/components'
import { Button, Checkbox, Input, TextArea } from '@nutui/nutui-react-taro'
import type { ReactNode } from 'react'
import {
  EXPERT_PHOTO_KINDS,
  EXPERT_TITLE_LABELS,
  EXPERT_TITLES,
  INTRODUCTION_MAX,
  PRACTICE_CATEGORIES,
  PRACTICE_CATEGORY_LABELS,
  PRACTICE_SCOPE_MAX,
  SPECIALITIES_MAX,
  SPECIALITY_OPTIONS,
} from '@contract/main/experts'
import { FormError } from '@/components/form/form-error'
import { navigate } from '@/services/navigate'
import { fieldId, type ProblemKey } from '../draft'
import type { CertificationForm as Model } from '../hooks/use-certification-form'
import { ChoiceChips } from './choice-chips'
import { DepartmentField } from './department-field'
import { HospitalRequestNote, hospitalRequestLabel } from './hospital-request-state'
import { IdCardNotice } from './id-card-notice'
import { PhotoField } from './photo-field'

function Field({
  name,
  label,
  required = false,
  error,
  hint,
  children,
}: {
  name: ProblemKey
  label: string
  required?: boolean
  error?: string
  hint?: string
  children: ReactNode
}) {
  return (
    <View
      className={`cert-form__field${error ? ' cert-form__field--error' : ''}`}
      id={fieldId(name)}
    >
      <View className="cert-form__label-line">
        <Text className="cert-form__label">{label}</Text>
        {required && <Text className="cert-form__required">必填</Text>}
        {hint && <Text className="cert-form__hint">{hint}</Text>}
      </View>
      {children}
      {error && (
        <View className="cert-form__error" role="alert">
          {error}
        </View>
      )}
    </View>
  )
}

/** 医院: the chosen hospital, or my request to add it with its state; a tap opens 选择医院. */
function HospitalPicker({ form }: { form: Model }) {
  const { hospitalName, hospitalRequest } = form.values
  // A declined request leaves no hospital: the person chooses again (its note says why).
  const request =
    hospitalRequest && !(hospitalName && hospitalRequest.status !== 'added')
      ? hospitalRequest
      : null
  const label = request ? hospitalRequestLabel(request) : null
  const name = label?.name ?? hospitalName
  return (
    <>
      <View
        className="cert-form__picker"
        role="button"
        aria-label={
          name ? `医院：${name}${label ? `（${label.state}）` : ''}，点击更换` : '选择医院'
        }
        onClick={form.pickHospital}
      >
        <Text className={name ? 'cert-form__value' : 'cert-form__placeholder'}>
          {name ?? '请选择执业医院'}
          {label && (
            <Text className={`cert-form__state cert-form__state--${request?.status ?? 'pending'}`}>
              （{label.state}）
            </Text>
          )}
        </Text>
        <Text className="cert-form__arrow">›</Text>
      </View>
      {request && <HospitalRequestNote request={request} onRepick={form.pickHospital} />}
    </>
  )
}

export interface CertificationFormProps {
  form: Model
  /** The profile has no ID card bound: say so before the person fills everything in. */
  idCardMissing: boolean
  /** Above the form: the operator's reason, the certified-expert line. */
  header?: ReactNode
  /** 取消: back to where the application stands (a rejected or certified one). */
  onCancel?: () => void
}

/** 专家认证's form: practice details, specialities, introduction, certificate photos, agreement. */
export function CertificationFormView({
  form,
  idCardMissing,
  header,
  onCancel,
}: CertificationFormProps) {
  const { values, problems } = form
  const busy = form.saving || form.submitting
  return (
    <View className="cert-form">
      {(idCardMissing || form.idCardMissing) && <IdCardNotice />}
      {header}
      <View className="cert-card">
        <Text className="cert-card__title">执业信息</Text>
        <Field name="hospitalId" label="医院" required error={problems.hospitalId}>
          <HospitalPicker form={form} />
        </Field>
        <Field name="department" label="科室" required error={problems.department}>
          <DepartmentField
            hospitalChosen={values.hospitalId !== null || values.hospitalRequest !== null}
            departments={form.departments}
            value={values.department}
            onChange={(value) => form.set('department', value)}
            onBlur={() => form.blur('department')}
          />
        </Field>
        <Field name="title" label="职称" required error={problems.title}>
          <ChoiceChips
            label="职称"
            options={EXPERT_TITLES}
            labels={EXPERT_TITLE_LABELS}
            value={values.title}
            onChange={(value) => form.set('title', value)}
          />
        </Field>
        <Field
          name="practiceCertificateNo"
          label="医师执业证书编码"
          required
          hint="15 位数字"
          error={problems.practiceCertificateNo}
        >
          <Input
            className="cert-form__input"
            type="digit"
            value={values.practiceCertificateNo}
            placeholder="见执业证书信息页"
            maxLength={15}
            clearable
            onChange={(value) => form.set('practiceCertificateNo', value.replace(/\D/g, ''))}
            onBlur={() => form.blur('practiceCertificateNo')}
          />
        </Field>
        <Field
          name="qualificationCertificateNo"
          label="医师资格证书编码"
          required
          hint="15–27 位数字"
          error={problems.qualificationCertificateNo}
        >
          <Input
            className="cert-form__input"
            type="digit"
            value={values.qualificationCertificateNo}
            placeholder="见医师资格证书"
            maxLength={27}
            clearable
            onChange={(value) => form.set('qualificationCertificateNo', value.replace(/\D/g, ''))}
            onBlur={() => form.blur('qualificationCertificateNo')}
          />
        </Field>
        <Field name="practiceCategory" label="执业类别" required error={problems.practiceCategory}>
          <ChoiceChips
            label="执业类别"
            options={PRACTICE_CATEGORIES}
            labels={PRACTICE_CATEGORY_LABELS}
            value={values.practiceCategory}
            onChange={(value) => form.set('practiceCategory', value)}
          />
        </Field>
        <Field name="practiceScope" label="执业范围" required error={problems.practiceScope}>
          <Input
            className="cert-form__input"
            value={values.practiceScope}
            placeholder="与执业证书一致，如 医学影像和放射治疗专业"
            maxLength={PRACTICE_SCOPE_MAX}
            clearable
            onChange={(value) => form.set('practiceScope', value)}
            onBlur={() => form.blur('practiceScope')}
          />
        </Field>
      </View>

      <View className="cert-card">
        <Text className="cert-card__title">擅长与简介</Text>
        <Field
          name="specialities"
          label="擅长方向"
          required
          hint={`已选 ${values.specialities.length}/${SPECIALITIES_MAX}`}
          error={problems.specialities}
        >
          <View className="cert-tags" aria-label="擅长方向">
            {SPECIALITY_OPTIONS.map((speciality) => {
              const on = values.specialities.includes(speciality)
              return (
                <View
                  key={speciality}
                  role="checkbox"
                  aria-checked={on}
                  className={`cert-tag${on ? ' cert-tag--on' : ''}`}
                  onClick={() => form.toggleSpeciality(speciality)}
                >
                  {speciality}
                </View>
              )
            })}
          </View>
        </Field>
        <Field
          name="introduction"
          label="个人简介"
          hint="选填，患者会看到"
          error={problems.introduction}
        >
          <TextArea
            className="cert-form__area"
            value={values.introduction}
            placeholder="介绍您的从业经历、擅长的检查与疾病（患者在您的主页上看到）"
            maxLength={INTRODUCTION_MAX}
            showCount
            autoSize
            onChange={(value) => form.set('introduction', value.slice(0, INTRODUCTION_MAX))}
            onBlur={() => form.blur('introduction')}
          />
        </Field>
      </View>

      <View className="cert-card" id={fieldId('photos')}>
        <Text className="cert-card__title">证书照片</Text>
        <Text className="cert-card__note">
          请拍摄清晰、完整的原件。照片仅您和审核人员可见，不会公开；上传后即去除拍摄信息。
        </Text>
        {EXPERT_PHOTO_KINDS.map((kind) => (
          <PhotoField
            key={kind}
            kind={kind}
            application={form.application}
            uploading={form.uploading}
            onAdd={() => void form.addPhotos(kind)}
            onRemove={(photoId) => void form.removePhoto(photoId)}
          />
        ))}
        {problems.photos && (
          <View className="cert-form__error" role="alert">
            {problems.photos}
          </View>
        )}
      </View>

      <View className="cert-agreement" id={fieldId('agreement')}>
        <View className="cert-agreement__line">
          <Checkbox
            className="cert-agreement__box"
            checked={form.agreed}
            disabled={form.agreementVersion === null}
            aria-label="同意《专家服务协议》"
            onChange={(checked) => form.setAgreed(checked)}
          />
          <Text className="cert-agreement__text" onClick={() => form.setAgreed(!form.agreed)}>
            我已阅读并同意
          </Text>
          <View
            className="cert-agreement__link"
            role="link"
            onClick={() => void navigate('expertAgreement')}
          >
            《专家服务协议》
          </View>
          {form.agreementVersion && (
            <Text className="cert-agreement__version">（版本 {form.agreementVersion}）</Text>
          )}
        </View>
        {form.agreementError && (
          <View className="cert-form__link" role="button" onClick={form.retryAgreement}>
            {form.agreementError}，点此重试
          </View>
        )}
        {problems.agreement && (
          <View className="cert-form__error" role="alert">
            {problems.agreement}
          </View>
        )}
      </View>

      <View className="cert-actions">
        <FormError message={form.submitError} />
        <View className="cert-actions__row">
          {onCancel && (
            <Button className="cert-actions__button" disabled={busy} onClick={onCancel}>
              取消
            </Button>
          )}
          <Button
            className="cert-actions__button"
            loading={form.saving}
            disabled={busy}
            onClick={() => void form.save()}
          >
            保存草稿
          </Button>
          <Button
            className="cert-actions__button cert-actions__button--main"
            type="primary"
            loading={form.submitting}
            disabled={busy}
            onClick={() => void form.submit()}
          >
            {form.submitting ? '提交中…' : '提交审核'}
          </Button>
        </View>
      </View>
    </View>
  )
}
