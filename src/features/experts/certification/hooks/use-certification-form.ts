import Taro from '@tarojs/taro'
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  EXPERT_MESSAGES,
  EXPERT_PHOTOS_PER_KIND,
  type ExpertPhotoKind,
  SPECIALITIES_MAX,
} from '@contract/main/experts'
import { REASONS } from '@contract/reasons'
import { useResource } from '@/hooks/use-resource'
import { currentSoftwareName } from '@/platform/runtime'
import { pickPhotos } from '@/platform/file-picker'
import { showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import { getAgreement } from '@/services/app-info'
import {
  deleteExpertPhoto,
  type ExpertApplication,
  onExpertHospitalPicked,
  saveExpertDraft,
  submitExpertApplication,
  uploadExpertPhoto,
} from '@/services/experts'
import { type Department, listHospitalDepartments } from '@/services/hospital-directory'
import { errorReason, isCancelled } from '@/services/http'
import { navigate } from '@/services/navigate'
import {
  type CertificationValues,
  draftOf,
  draftProblems,
  type FieldName,
  fieldId,
  firstProblem,
  photoCount,
  type ProblemKey,
  type Problems,
  submitProblems,
  valuesOf,
} from '../draft'

/** The long form's first message may be far above the buttons: it is brought into view. */
function scrollTo(key: ProblemKey): void {
  // Outside a mounted page there is nothing to scroll; that is no reason to fail the check.
  Promise.resolve()
    .then(() => Taro.pageScrollTo({ selector: `#${fieldId(key)}`, duration: 200 }))
    .catch(() => undefined)
}

/** A photo on its way up: shown (from the phone) with 上传中 until the server has it. */
export interface UploadingPhoto {
  kind: ExpertPhotoKind
  localPath: string
}

export type DepartmentsState =
  | { status: 'none' }
  | { status: 'loading' }
  | { status: 'error'; retry: () => void }
  /** An empty list: the hospital lists no departments, so the person types theirs. */
  | { status: 'ready'; departments: Department[] }

export interface CertificationForm {
  values: CertificationValues
  set: <K extends FieldName>(name: K, value: CertificationValues[K]) => void
  /** Leaving a text field shows its message (typing alone does not scold). */
  blur: (name: FieldName) => void
  /** The messages to show now, beside their fields. */
  problems: Problems
  pickHospital: () => void
  departments: DepartmentsState
  toggleSpeciality: (speciality: string) => void
  /** The application as the server has it (its photos live there as soon as they are uploaded). */
  application: ExpertApplication | null
  uploading: UploadingPhoto[]
  addPhotos: (kind: ExpertPhotoKind) => Promise<void>
  removePhoto: (photoId: string) => Promise<void>
  /** The agreement's version on screen; null while it loads (or failed: `agreementError`). */
  agreementVersion: string | null
  agreementError: string | null
  retryAgreement: () => void
  agreed: boolean
  setAgreed: (agreed: boolean) => void
  saving: boolean
  submitting: boolean
  save: () => Promise<void>
  submit: () => Promise<void>
  /** The server's refusal of the last save or submit, in its own words. */
  submitError: string | null
  /** The server said no ID card is bound (reason expert.id-card-missing): show the way to bind. */
  idCardMissing: boolean
}

export interface CertificationFormOptions {
  /** The application the form starts from (a draft, a rejected one, the certified values). */
  application: ExpertApplication | null
  /** The server answered a save, an upload or a deletion: the page keeps the newest application. */
  onApplication: (application: ExpertApplication) => void
  /** Submitted: the page shows 待审核. */
  onSubmitted: (application: ExpertApplication) => void
}

/**
 * The certification form: what the person types stays here, whatever the server answers (a failed
 * save or submit loses nothing); photos go up as they are picked, so they live on the server's
 * application. Checks use the contract's schemas and words (../draft.ts).
 */
export function useCertificationForm({
  application,
  onApplication,
  onSubmitted,
}: CertificationFormOptions): CertificationForm {
  const [values, setValues] = useState<CertificationValues>(() => valuesOf(application))
  const [touched, setTouched] = useState<ReadonlySet<FieldName>>(new Set())
  /** Which button last asked for every message: submit checks more than a draft does. */
  const [attempt, setAttempt] = useState<'save' | 'submit' | null>(null)
  const [uploading, setUploading] = useState<UploadingPhoto[]>([])
  const [agreedVersion, setAgreedVersion] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const [submitting, setSubmitting] = useState(false)
  const [submitError, setSubmitError] = useState<string | null>(null)
  const [idCardMissing, setIdCardMissing] = useState(false)
  const busy = useRef(false)
  const latestApplication = useRef(application)
  latestApplication.current = application

  const agreement = useResource('expert', () => getAgreement('expert', currentSoftwareName()), {
    ignoreError: isCancelled,
  })
  const agreementVersion = agreement.status === 'ready' ? agreement.data.version : null
  // Ticked means ticked at the version on screen: a newer one must be read and ticked again.
  const agreed = agreementVersion !== null && agreedVersion === agreementVersion

  const departments = useResource(values.hospitalId, () =>
    listHospitalDepartments(values.hospitalId ?? ''),
  )

  const set = useCallback(<K extends FieldName>(name: K, value: CertificationValues[K]) => {
    setValues((current) => ({ ...current, [name]: value }))
    // A choice is made at once (no blur), so its message shows at once too.
    if (typeof value !== 'string') setTouched((current) => new Set(current).add(name))
  }, [])
  const blur = useCallback(
    (name: FieldName) => setTouched((current) => new Set(current).add(name)),
    [],
  )

  const stopListening = useRef<(() => void) | null>(null)
  useEffect(() => () => stopListening.current?.(), [])
  const pickHospital = useCallback(() => {
    stopListening.current?.()
    stopListening.current = onExpertHospitalPicked((choice) => {
      stopListening.current?.()
      stopListening.current = null
      setValues((current) => {
        if (choice.kind === 'hospital') {
          const { hospital } = choice
          if (current.hospitalId === hospital.id) return current
          // Another hospital's departments differ: the old one would be wrong there.
          return {
            ...current,
            hospitalId: hospital.id,
            hospitalName: hospital.name,
            hospitalRequest: null,
            department: '',
          }
        }
        const { request } = choice
        if (current.hospitalRequest?.id === request.id && current.hospitalId === null) {
          return current
        }
        // Until an operator adds it there is no hospital, only the request (and no department list).
        return {
          ...current,
          hospitalId: request.hospitalId,
          hospitalName: request.hospitalName,
          hospitalRequest: request,
          department: '',
        }
      })
      setTouched((current) => new Set(current).add('hospitalId'))
    })
    void navigate('expertHospital')
  }, [])

  const toggleSpeciality = useCallback((speciality: string) => {
    setValues((current) => {
      if (current.specialities.includes(speciality)) {
        return {
          ...current,
          specialities: current.specialities.filter((one) => one !== speciality),
        }
      }
      if (current.specialities.length >= SPECIALITIES_MAX) {
        showToast(EXPERT_MESSAGES.specialitiesMany)
        return current
      }
      return { ...current, specialities: [...current.specialities, speciality] }
    })
    setTouched((current) => new Set(current).add('specialities'))
  }, [])

  const addPhotos = useCallback(
    async (kind: ExpertPhotoKind) => {
      const waiting = uploading.filter((photo) => photo.kind === kind).length
      const room = EXPERT_PHOTOS_PER_KIND - photoCount(latestApplication.current, kind) - waiting
      if (room <= 0) return showToast(EXPERT_MESSAGES.photosTooMany)
      let paths: string[]
      try {
        paths = (await pickPhotos(room)).slice(0, room)
      } catch (error) {
        return showToast(describeError(error))
      }
      const fresh = paths.map((localPath) => ({ kind, localPath }))
      setUploading((current) => [...current, ...fresh])
      // One at a time: the server orders a kind's photos by arrival and counts them in turn.
      for (const photo of fresh) {
        try {
          onApplication(await uploadExpertPhoto(kind, photo.localPath))
        } catch (error) {
          showToast(describeError(error, '照片上传失败，请重试'))
        } finally {
          setUploading((current) => current.filter((one) => one.localPath !== photo.localPath))
        }
      }
    },
    [uploading, onApplication],
  )

  const removePhoto = useCallback(
    async (photoId: string) => {
      try {
        onApplication(await deleteExpertPhoto(photoId))
      } catch (error) {
        showToast(describeError(error, '删除失败，请稍后重试'))
      }
    },
    [onApplication],
  )

  const fail = (error: unknown) => {
    if (isCancelled(error)) return
    setSubmitError(describeError(error, '提交失败，请稍后重试'))
    if (errorReason(error) === REASONS.expertIdCardMissing) setIdCardMissing(true)
  }

  const save = async () => {
    if (busy.current) return
    setAttempt('save')
    setSubmitError(null)
    const first = firstProblem(draftProblems(values))
    if (first) return scrollTo(first)
    busy.current = true
    setSaving(true)
    try {
      onApplication(await saveExpertDraft(draftOf(values)))
      showToast('草稿已保存')
    } catch (error) {
      fail(error)
    } finally {
      busy.current = false
      setSaving(false)
    }
  }

  const submit = async () => {
    if (busy.current) return
    setAttempt('submit')
    setSubmitError(null)
    const problems = submitProblems(values, latestApplication.current, agreed)
    const first = firstProblem(problems)
    if (first) {
      showToast('请按提示补全后再提交')
      scrollTo(first)
      return
    }
    busy.current = true
    setSubmitting(true)
    try {
      // What is on screen is what is reviewed: saved first, then submitted with the version read.
      onApplication(await saveExpertDraft(draftOf(values)))
      const submitted = await submitExpertApplication(agreementVersion ?? '')
      setIdCardMissing(false)
      onSubmitted(submitted)
    } catch (error) {
      fail(error)
      // The agreement may have changed under the person: reloaded, an older tick no longer counts.
      void agreement.reload()
    } finally {
      busy.current = false
      setSubmitting(false)
    }
  }

  const all =
    attempt === 'submit' ? submitProblems(values, application, agreed) : draftProblems(values)
  const problems: Problems = {}
  for (const [key, message] of Object.entries(all) as [keyof Problems, string][]) {
    if (attempt !== null || touched.has(key as FieldName)) problems[key] = message
  }

  return {
    values,
    set,
    blur,
    problems,
    pickHospital,
    departments:
      values.hospitalId === null && values.hospitalRequest?.status === 'pending'
        ? // A hospital not yet listed has no departments to offer: the person types theirs.
          { status: 'ready', departments: [] }
        : departments.status === 'idle'
          ? { status: 'none' }
          : departments.status === 'ready'
            ? { status: 'ready', departments: departments.data }
            : departments.status === 'error'
              ? { status: 'error', retry: () => void departments.reload() }
              : { status: 'loading' },
    toggleSpeciality,
    application,
    uploading,
    addPhotos,
    removePhoto,
    agreementVersion,
    agreementError: agreement.status === 'error' ? '《专家服务协议》加载失败' : null,
    retryAgreement: () => void agreement.reload(),
    agreed,
    setAgreed: (next) => setAgreedVersion(next ? agreementVersion : null),
    saving,
    submitting,
    save,
    submit,
    submitError,
    idCardMissing,
  }
}
