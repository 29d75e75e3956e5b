import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { EXPERT_APPLICATION_STATUS_LABELS } from '@contract/main/experts'
import { PageState } from '@/components/page-state'
import type { ExpertApplication } from '@/services/experts'
import { timeFormat } from '@/utils/time'
import type { Certification } from '../hooks/use-certification'
import { useCertificationForm } from '../hooks/use-certification-form'
import { ApplicationSummary } from './application-summary'
import { CertificationFormView } from './certification-form'
import { IdCardNotice } from './id-card-notice'
import './certification.scss'

/** What a certified expert must know before changing where or as what they practise. */
export const CHANGE_REVIEW_LINE =
  '变更医院、科室或职称需重新审核，审核通过前，您的主页仍显示已认证的信息。'

const when = (at: string | null) => (at ? timeFormat(at, 'yyyy-mm-dd hh:MM') : '')

function StatusHead({
  application,
  children,
}: {
  application: ExpertApplication
  children?: React.ReactNode
}) {
  return (
    <View className={`cert-status cert-status--${application.status}`}>
      <Text className="cert-status__label">
        {EXPERT_APPLICATION_STATUS_LABELS[application.status]}
      </Text>
      {children}
    </View>
  )
}

function RejectReason({ reason }: { reason: string }) {
  return (
    <View className="cert-reason" role="alert">
      <Text className="cert-reason__title">驳回原因</Text>
      <Text className="cert-reason__text">{reason}</Text>
    </View>
  )
}

/** No application yet (or the last one withdrawn): what certification is, and the way in. */
function Intro({ model, withdrawn }: { model: Certification; withdrawn: boolean }) {
  return (
    <View className="cert-intro">
      {model.idCardMissing && <IdCardNotice />}
      <View className="cert-card">
        <Text className="cert-intro__title">成为医影通认证专家</Text>
        <Text className="cert-intro__text">
          认证后，患者会看到您经过核实的姓名、医院、科室和职称。
        </Text>
        <View className="cert-intro__steps">
          <Text className="cert-intro__step">1. 绑定本人身份证（认证的姓名以身份证为准）</Text>
          <Text className="cert-intro__step">2. 选择医院，填写执业信息和擅长方向</Text>
          <Text className="cert-intro__step">3. 上传医师执业证书的信息页和注册页</Text>
          <Text className="cert-intro__step">4. 运营人员核对执业注册信息后，在消息中通知您</Text>
        </View>
        <Text className="cert-intro__note">证书编码和照片仅您和审核人员可见，不会公开。</Text>
        {withdrawn && <Text className="cert-intro__note">您上次的申请已撤回，可以重新申请。</Text>}
      </View>
      <Button className="cert-intro__start" type="primary" block onClick={model.startEditing}>
        {withdrawn ? '重新申请' : '开始认证'}
      </Button>
    </View>
  )
}

function Pending({ model, application }: { model: Certification; application: ExpertApplication }) {
  return (
    <View className="cert-page">
      <StatusHead application={application}>
        <Text className="cert-status__text">
          提交于 {when(application.submittedAt)}，运营人员核对后会通过「我的消息」通知您。
        </Text>
        {model.role === 'expert' && <Text className="cert-status__text">{CHANGE_REVIEW_LINE}</Text>}
      </StatusHead>
      <ApplicationSummary
        application={application}
        lockedNote="审核中的申请不能修改：如需更换医院，请撤回申请后重新填写。"
      />
      <View className="cert-page__actions">
        <Button
          className="cert-page__withdraw"
          block
          loading={model.withdrawing}
          disabled={model.withdrawing}
          onClick={() => void model.withdraw()}
        >
          撤回申请
        </Button>
      </View>
    </View>
  )
}

function Approved({
  model,
  application,
}: {
  model: Certification
  application: ExpertApplication
}) {
  return (
    <View className="cert-page">
      <StatusHead application={application}>
        <Text className="cert-status__text">认证于 {when(application.decidedAt)}</Text>
      </StatusHead>
      <ApplicationSummary application={application} onRepickHospital={model.startEditing} />
      <View className="cert-page__actions">
        <Text className="cert-page__note">{CHANGE_REVIEW_LINE}</Text>
        <Button block onClick={model.startEditing}>
          变更医院、科室或职称
        </Button>
      </View>
    </View>
  )
}

function Rejected({
  model,
  application,
}: {
  model: Certification
  application: ExpertApplication
}) {
  return (
    <View className="cert-page">
      <StatusHead application={application}>
        <Text className="cert-status__text">审核于 {when(application.decidedAt)}</Text>
      </StatusHead>
      {application.rejectReason && <RejectReason reason={application.rejectReason} />}
      <View className="cert-page__actions">
        <Button type="primary" block onClick={model.startEditing}>
          修改后重新提交
        </Button>
      </View>
      <ApplicationSummary application={application} onRepickHospital={model.startEditing} />
    </View>
  )
}

/** The form, with what the person should know above it. Its state lives as long as it is shown. */
function Form({
  model,
  application,
}: {
  model: Certification
  application: ExpertApplication | null
}) {
  // A new application after a certified or withdrawn one starts without photos (the server keeps
  // the last one's fields only): the review needs current ones.
  const fresh = application?.status === 'approved' || application?.status === 'withdrawn'
  const form = useCertificationForm({
    application: fresh && application ? { ...application, photos: [] } : application,
    onApplication: model.onApplication,
    onSubmitted: model.onSubmitted,
  })
  const reason = application?.rejectReason
  const changing = model.role === 'expert' || application?.status === 'approved'
  // From a rejected or certified application the person may go back without changing anything.
  const cancellable = application !== null && application.status !== 'draft'
  return (
    <CertificationFormView
      form={form}
      idCardMissing={model.idCardMissing}
      header={
        <>
          {reason && <RejectReason reason={reason} />}
          {changing && <Text className="cert-form__banner">{CHANGE_REVIEW_LINE}</Text>}
        </>
      }
      onCancel={cancellable ? model.stopEditing : undefined}
    />
  )
}

/** 专家认证: where my application stands (none, 草稿, 待审核, 已认证, 已驳回) and the way on. */
export function CertificationView({ model }: { model: Certification }) {
  const resource = model.application
  if (resource.status === 'loading') return <PageState status="loading" />
  if (resource.status === 'error') {
    return (
      <PageState status="error" message={resource.message} onRetry={() => void resource.reload()} />
    )
  }
  const application = resource.data
  if (model.editing) return <Form model={model} application={application} />
  if (!application || application.status === 'withdrawn') {
    return <Intro model={model} withdrawn={application?.status === 'withdrawn'} />
  }
  if (application.status === 'pending') return <Pending model={model} application={application} />
  if (application.status === 'approved') return <Approved model={model} application={application} />
  return <Rejected model={model} application={application} />
}
