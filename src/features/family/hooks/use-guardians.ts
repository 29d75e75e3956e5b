import { useCallback, useEffect, useState } from 'react'
import { CODE_RULES, MOBILE_RULES } from '@/components/form/rules'
import { useForm, type Form } from '@/components/form/use-form'
import { useSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showModal, showToast } from '@/platform/ui'
import {
  acceptGuardianInvitation,
  declineGuardianInvitation,
  inviteGuardian,
  listGuardianInvitations,
  sendGuardianInvitationCode,
  type FamilyMember,
  type GuardianInvitation,
} from '@/services/family'

/*
 * 共同监护人 (contract/main/family.ts): the guardian who added a child invites the other parent by
 * phone; the invitee, signed in with that phone, accepts here with a code to their own phone.
 */

export interface InviteGuardianModel {
  form: Form<'mobile'>
  submit: () => void
}

/** 邀请共同监护人 for `member` (a child I added): the other parent's phone. */
export function useInviteGuardian(member: FamilyMember, onSent: () => void): InviteGuardianModel {
  const form = useForm({ mobile: { rules: MOBILE_RULES } })
  const submit = () => {
    if (!form.validate()) return
    form.run(async () => {
      await inviteGuardian(member.id, form.values.mobile)
      showToast('邀请已发送')
      onSent()
    })
  }
  return { form, submit }
}

/** The invitations waiting for me; an empty list while loading or when the call fails (a section, not a page). */
export function useGuardianInvitations(): { items: GuardianInvitation[]; reload: () => void } {
  const [items, setItems] = useState<GuardianInvitation[]>([])
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let live = true
    listGuardianInvitations().then(
      (found) => live && setItems(found),
      // The family list above says what is wrong with the connection; this section stays away.
      () => live && setItems([]),
    )
    return () => {
      live = false
    }
  }, [attempt])
  const reload = useCallback(() => setAttempt((n) => n + 1), [])
  return { items, reload }
}

export interface AnswerInvitationModel {
  form: Form<'code'>
  sms: SmsCode
  accept: () => void
  decline: () => Promise<void>
}

/** One invitation: 获取验证码 (to my own phone), 接受 with it, or 拒绝. */
export function useAnswerInvitation(
  invitation: GuardianInvitation,
  onAnswered: () => void,
): AnswerInvitationModel {
  const form = useForm({ code: { rules: CODE_RULES } })
  const request = useCallback(
    () => sendGuardianInvitationCode(invitation.id).then(() => ({ cooldownSeconds: 60 })),
    [invitation.id],
  )
  const sms = useSmsCode(request)
  const accept = () => {
    if (!form.validate()) return
    form.run(async () => {
      await acceptGuardianInvitation(invitation.id, form.values.code)
      showToast('已接受邀请')
      onAnswered()
    })
  }
  const decline = async () => {
    const confirmed = await showModal({
      title: '拒绝邀请',
      content: '拒绝后，如需一同监护，请对方重新邀请。',
      confirmText: '拒绝',
    })
    if (!confirmed) return
    form.run(async () => {
      await declineGuardianInvitation(invitation.id)
      showToast('已拒绝')
      onAnswered()
    })
  }
  return { form, sms, accept, decline }
}
