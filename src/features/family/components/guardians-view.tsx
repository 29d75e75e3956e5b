import { Text, View } from '@tarojs/components'
import { Button } from '@nutui/nutui-react-taro'
import { MobileField, SmsCodeField } from '@/components/form/fields'
import { FormError } from '@/components/form/form-error'
import { SubmitButton } from '@/components/form/submit-button'
import {
  GUARDIAN_INVITATION_DAYS,
  memberLabel,
  type FamilyMember,
  type GuardianInvitation,
} from '@/services/family'
import { timeFormat } from '@/utils/time'
import {
  useAnswerInvitation,
  useInviteGuardian,
  type InviteGuardianModel,
} from '../hooks/use-guardians'
import './family.scss'

export type { FamilyMember }

/** 邀请共同监护人: the other parent's phone, and what happens next. */
export function InviteGuardianView({
  member,
  model,
  onCancel,
}: {
  member: FamilyMember
  model: InviteGuardianModel
  onCancel: () => void
}) {
  const { form } = model
  return (
    <View className="family family--form">
      <Text className="family__section">为{memberLabel(member)}邀请另一位监护人</Text>
      <View className="family__card family__card--form">
        <MobileField
          field={form.field('mobile')}
          label="对方手机号"
          placeholder="孩子另一位监护人的手机号"
        />
      </View>
      <Text className="family__tip">
        对方用这个手机号登录后，在「亲情卡」中用本人手机验证码接受邀请，即可与您一同查看孩子的影像与报告。邀请{' '}
        {GUARDIAN_INVITATION_DAYS} 天内有效；请只邀请孩子的监护人。
      </Text>
      <FormError message={form.submitError} />
      <SubmitButton text="发送邀请" busy={form.submitting} onClick={model.submit} />
      <Button className="family__cancel" fill="none" block onClick={onCancel}>
        返回
      </Button>
    </View>
  )
}

/** The invite form with its model, for the 亲情卡 page: `onDone` after sending or 返回. */
export function InviteGuardianForm({
  member,
  onDone,
}: {
  member: FamilyMember
  onDone: () => void
}) {
  return (
    <InviteGuardianView
      member={member}
      model={useInviteGuardian(member, onDone)}
      onCancel={onDone}
    />
  )
}

function InvitationRow({
  invitation,
  onAnswered,
}: {
  invitation: GuardianInvitation
  onAnswered: () => void
}) {
  const model = useAnswerInvitation(invitation, onAnswered)
  const inviter = invitation.inviterNameMasked ?? invitation.inviterMobileMasked ?? '一位家长'
  return (
    <View className="family__invitation">
      <Text className="family__invitation-text">
        {inviter} 邀请您一同监护 {invitation.childNameMasked ?? '孩子'}
      </Text>
      <Text className="family__note">
        {timeFormat(invitation.expiresAt, 'yyyy-mm-dd')} 前有效 · 验证码发送到您本人的手机
      </Text>
      <SmsCodeField field={model.form.field('code')} sms={model.sms} />
      <FormError message={model.form.submitError} />
      <View className="family__actions">
        <Button
          className="family__add"
          type="primary"
          loading={model.form.submitting}
          onClick={model.accept}
        >
          接受
        </Button>
        <Button className="family__add" fill="outline" onClick={() => void model.decline()}>
          拒绝
        </Button>
      </View>
    </View>
  )
}

/** 待处理的邀请: invitations to my phone to guard a child together with the person who added them. */
export function GuardianInvitationsView({
  items,
  onAnswered,
}: {
  items: GuardianInvitation[]
  onAnswered: () => void
}) {
  if (items.length === 0) return null
  return (
    <>
      <Text className="family__section">待处理的共同监护邀请</Text>
      <View className="family__card">
        {items.map((invitation) => (
          <InvitationRow key={invitation.id} invitation={invitation} onAnswered={onAnswered} />
        ))}
      </View>
    </>
  )
}
