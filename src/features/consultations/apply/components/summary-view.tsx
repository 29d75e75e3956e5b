import { Text, View } from '@tarojs/components'
import { Checkbox } from '@nutui/nutui-react-taro'
import { PageState } from '@/components/page-state'
import { SubmitButton } from '@/components/form/submit-button'
import {
  CONSULT_ACCEPT_HOURS,
  CONSULT_GRANT_DAYS_AFTER,
  consultConsentText,
  yuanOf,
} from '@/services/consultations'
import { ConsultNotice, ExpertMiniCard } from '../../shared/consult-parts'
import type { FixPage, SubmitModel } from '../hooks/use-submit'
import { SERVICE_PROMISES, PriceSplit } from './consult-mode-view'
import { DemoPaySheet } from './demo-pay-sheet'
import { TEXT_FIELDS } from './application-view'
import './apply.scss'

function Row({ label, value }: { label: string; value: string }) {
  if (value.trim() === '') return null
  return (
    <View className="consult-summary__row">
      <Text className="consult-summary__label">{label}</Text>
      <Text className="consult-summary__value">{value}</Text>
    </View>
  )
}

export interface SummaryViewProps {
  model: SubmitModel
  onFix: (page: FixPage) => void
}

/**
 * 会诊申请信息: what will be sent, to whom, for how much and how fast; what the expert will see and
 * until when; the notice; and the separate consent (PIPL art. 29) without which 提交并支付 sends
 * nothing.
 */
export function SummaryView({ model, onFix }: SummaryViewProps) {
  const { quote, draft } = model
  if (quote.status === 'loading') return <PageState status="loading" />
  if (quote.status === 'error') {
    return <PageState status="error" message={quote.message} onRetry={quote.retry} />
  }
  const data = quote.data
  const exams = draft.records.filter((record) => record.kind === 'exam')
  const reports = draft.records.filter((record) => record.kind === 'report')
  return (
    <View className="consult-page consult-page--with-bar">
      <View className="consult-page__card">
        <ExpertMiniCard expert={data.expert} />
        <View className="consult-summary__service">
          <Text className="consult-mode__name">{data.serviceLabel}</Text>
          <Text className="consult-price__total">¥{yuanOf(data.priceFen)}</Text>
        </View>
        <PriceSplit quote={data} />
        {SERVICE_PROMISES[data.service](data).map((line) => (
          <Text key={line} className="consult-mode__line">
            {line}
          </Text>
        ))}
        <Text className="consult-mode__line">
          专家 {CONSULT_ACCEPT_HOURS} 小时内未接诊或未按时回复，全额退款
        </Text>
        {data.unavailable && (
          <View className="consult-form__error" role="alert">
            {data.unavailable}
          </View>
        )}
      </View>

      {model.incomplete && (
        <View className="consult-form__notice" role="alert">
          <Text className="consult-form__notice-text">{model.incomplete.message}</Text>
          <Text
            className="consult-page__link"
            onClick={() => model.incomplete && onFix(model.incomplete.page)}
          >
            去填写
          </Text>
        </View>
      )}

      <View className="consult-page__card">
        <View className="consult-page__card-head">
          <Text className="consult-form__label">申请内容</Text>
          <Text className="consult-page__link" onClick={() => onFix('consultApplication')}>
            修改
          </Text>
        </View>
        <Row label="就诊人" value={draft.personLabel} />
        {TEXT_FIELDS.map((field) => (
          <Row key={field.key} label={field.label} value={draft[field.key]} />
        ))}
        <Row
          label="线下就诊"
          value={
            draft.seenOffline === null
              ? ''
              : draft.seenOffline
                ? `已就诊${draft.offlinePictures.length > 0 ? `（${draft.offlinePictures.length} 张病历照片）` : ''}`
                : '未就诊'
          }
        />
      </View>

      <View className="consult-page__card">
        <View className="consult-page__card-head">
          <Text className="consult-form__label">将提供给专家的资料</Text>
          <Text className="consult-page__link" onClick={() => onFix('examine')}>
            修改
          </Text>
        </View>
        {[...exams, ...reports].map((record) => (
          <View key={`${record.kind}:${record.id}`} className="consult-summary__record">
            <Text className="consult-summary__kind">
              {record.kind === 'exam' ? '影像' : '报告'}
            </Text>
            <Text className="consult-summary__value">
              {record.title}
              {record.private ? '（隐私报告）' : ''}
            </Text>
          </View>
        ))}
        {draft.externalExams.map((exam, index) => (
          <View key={index} className="consult-summary__record">
            <Text className="consult-summary__kind">院外</Text>
            <Text className="consult-summary__value">
              {[exam.hospital, exam.date, exam.type].filter(Boolean).join(' · ')}
              {exam.pictures.length > 0 ? `（${exam.pictures.length} 张照片）` : ''}
            </Text>
          </View>
        ))}
        <Text className="consult-form__hint">
          {data.expert.name}医生只能查看以上所选资料，授权在咨询结束 {CONSULT_GRANT_DAYS_AFTER}{' '}
          天后自动失效，您可随时在“授权记录”中撤销。专家看不到您的身份证号。
        </Text>
      </View>

      <ConsultNotice />

      <View className="consult-consent">
        <Checkbox
          className="consult-consent__box"
          checked={model.consent}
          onChange={(value) => model.setConsent(value)}
        />
        <Text className="consult-consent__text" onClick={() => model.setConsent(!model.consent)}>
          {consultConsentText(data.expert.name, CONSULT_GRANT_DAYS_AFTER)}
        </Text>
      </View>
      {model.consentError && (
        <View className="consult-form__error consult-consent__error" role="alert">
          {model.consentError}
        </View>
      )}

      <View className="consult-bar">
        <SubmitButton
          text={`提交并支付 ¥${yuanOf(data.priceFen)}`}
          busyText="提交中…"
          busy={model.submitting || model.pay.busy}
          onClick={() => void model.submit()}
        />
      </View>
      <DemoPaySheet pay={model.pay} />
    </View>
  )
}
