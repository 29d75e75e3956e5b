import { useCallback, useState } from 'react'
import {
  CODE_RULES,
  ID_CARD_RULES,
  MOBILE_RULES,
  REAL_NAME_RULES,
  normaliseIdCard,
} from '@/components/form/rules'
import { useForm, type Form } from '@/components/form/use-form'
import { usePhoneSmsCode, type SmsCode } from '@/components/form/use-sms-code'
import { showToast } from '@/platform/ui'
import {
  FAMILY_MESSAGES,
  addFamilyAdult,
  addFamilyChild,
  sendFamilyCode,
  type FamilyRelation,
} from '@/services/family'

export interface AddChildModel {
  form: Form<'name' | 'idNumber'>
  guardian: boolean
  setGuardian: (value: boolean) => void
  /** Shown under the checkbox when 添加 was pressed without it. */
  guardianError: string | null
  submit: () => void
}

/**
 * 添加儿童: the child's name and ID number and the guardian's statement (PIPL art. 31). The number
 * lives only in this form's state until the server has it.
 */
export function useAddChild(onAdded: () => void): AddChildModel {
  const form = useForm({
    name: { rules: REAL_NAME_RULES },
    idNumber: { rules: ID_CARD_RULES, normalise: normaliseIdCard },
  })
  const [guardian, setGuardianState] = useState(false)
  const [guardianError, setGuardianError] = useState<string | null>(null)

  const setGuardian = (value: boolean) => {
    setGuardianState(value)
    if (value) setGuardianError(null)
  }

  const submit = () => {
    const fieldsOk = form.validate()
    if (!guardian) {
      setGuardianError(FAMILY_MESSAGES.guardianConfirm)
      return
    }
    if (!fieldsOk) return
    form.run(async () => {
      await addFamilyChild(form.values.name.trim(), form.values.idNumber)
      form.setValue('idNumber', '')
      showToast('已添加')
      onAdded()
    })
  }

  return { form, guardian, setGuardian, guardianError, submit }
}

export interface AddAdultModel {
  form: Form<'mobile' | 'code'>
  relation: FamilyRelation | null
  setRelation: (value: FamilyRelation) => void
  relationError: string | null
  sms: SmsCode
  submit: () => void
}

const RELATION_REQUIRED = '请选择与您的关系'

/** 添加成年家人: their phone, the relation, and the code sent to THEIR phone (their consent). */
export function useAddAdult(onAdded: () => void): AddAdultModel {
  const form = useForm({ mobile: { rules: MOBILE_RULES }, code: { rules: CODE_RULES } })
  const [relation, setRelationState] = useState<FamilyRelation | null>(null)
  const [relationError, setRelationError] = useState<string | null>(null)
  // The family code answers only ok: the usual cooldown applies.
  const send = useCallback(
    (mobile: string) => sendFamilyCode(mobile).then(() => ({ cooldownSeconds: 60 })),
    [],
  )
  const sms = usePhoneSmsCode(form, 'mobile', send)

  const setRelation = (value: FamilyRelation) => {
    setRelationState(value)
    setRelationError(null)
  }

  const submit = () => {
    const fieldsOk = form.validate()
    if (relation === null) {
      setRelationError(RELATION_REQUIRED)
      return
    }
    if (!fieldsOk) return
    form.run(async () => {
      await addFamilyAdult(form.values.mobile, form.values.code, relation)
      showToast('已添加')
      onAdded()
    })
  }

  return { form, relation, setRelation, relationError, sms, submit }
}
