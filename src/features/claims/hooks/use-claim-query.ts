import { useCallback, useState } from 'react'
import { required, rule } from '@/components/form/rules'
import { useForm } from '@/components/form/use-form'
import { UserFacingError } from '@/services/api'
import { lookupExamClaim, type ClaimedExam, type ClaimStart } from '@/services/claims'
import { useClaimCode } from './use-claim-code'

export interface PickedHospital {
  id: string
  name: string
}

export type ClaimQueryStep =
  | { step: 'form' }
  | { step: 'code'; start: ClaimStart }
  | { step: 'done'; examId: string; reportId: string | null; already: boolean }

const EXAM_NUMBER_RULES = [
  required('请输入检查号'),
  rule((value) => /^[\w\-./]+$/.test(value.trim()), '检查号只包含字母、数字和 - _ . /'),
  rule((value) => value.trim().length <= 64, '检查号最多 64 位'),
]
const NAME_RULES = [
  required('请输入姓名'),
  rule((value) => Array.from(value.trim()).length <= 50, '姓名最多 50 个字'),
]

/**
 * 影像查询: pick the hospital, type the 检查号 and the name on the slip, then prove the phone the
 * hospital recorded with an SMS code. The exam is then in 我的影像 and 我的报告.
 */
export function useClaimQuery() {
  const [hospital, setHospital] = useState<PickedHospital | null>(null)
  const [pickerOpen, setPickerOpen] = useState(false)
  const [hospitalError, setHospitalError] = useState<string | null>(null)
  const [state, setState] = useState<ClaimQueryStep>({ step: 'form' })
  const form = useForm(
    { examNumber: { rules: EXAM_NUMBER_RULES }, name: { rules: NAME_RULES } },
    { fallback: '查询失败，请稍后重试' },
  )

  const onClaimed = useCallback((exam: ClaimedExam) => {
    setState({ step: 'done', examId: exam.examId, reportId: exam.reportId, already: false })
  }, [])
  const ticket = state.step === 'code' ? state.start.ticket : null
  const proof = useClaimCode(ticket, onClaimed)

  const pickHospital = (picked: PickedHospital) => {
    setHospital(picked)
    setHospitalError(null)
    setPickerOpen(false)
  }

  const lookup = () => {
    if (!hospital) setHospitalError('请选择医院')
    const fieldsOk = form.validate()
    if (!hospital || !fieldsOk) return
    form.run(async () => {
      const start = await lookupExamClaim({
        hospitalId: hospital.id,
        examNumber: form.values.examNumber.trim(),
        name: form.values.name.trim(),
      })
      if (start.alreadyMine) {
        if (!start.examId) throw new UserFacingError('该检查已在您的影像中')
        setState({ step: 'done', examId: start.examId, reportId: null, already: true })
        return
      }
      setState({ step: 'code', start })
    })
  }

  const restart = () => {
    form.setValue('examNumber', '')
    form.setValue('name', '')
    setState({ step: 'form' })
  }

  return {
    state,
    hospital,
    hospitalError,
    pickerOpen,
    openPicker: () => setPickerOpen(true),
    closePicker: () => setPickerOpen(false),
    pickHospital,
    examNumber: form.field('examNumber'),
    name: form.field('name'),
    lookup,
    looking: form.submitting,
    lookupError: form.submitError,
    /** Back from the code step to the form (another exam, a typo). */
    back: () => setState({ step: 'form' }),
    restart,
    proof,
  }
}

export type ClaimQueryView = ReturnType<typeof useClaimQuery>
