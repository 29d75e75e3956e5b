import { z } from 'zod/mini'
import {
  EXPERT_MESSAGES,
  EXPERT_REQUIRED_PHOTO_KINDS,
  type ExpertApplication,
  type ExpertDraft,
  ExpertDraftSchema,
  type ExpertPhotoKind,
  type ExpertTitle,
  INTRODUCTION_MAX,
  type PracticeCategory,
} from '@contract/main/experts'
import { HOSPITAL_REQUEST_MESSAGES, type HospitalRequest } from '@contract/main/hospital-requests'

/*
 * The certification form's values and their checks, kept apart from React so the rules read in one
 * place. Every message is the contract's own (EXPERT_MESSAGES), through the contract's schemas: the
 * app never words a rule differently from the server that enforces it.
 */

/** What the form holds while the person types: text as typed, choices or null. */
export interface CertificationValues {
  hospitalId: string | null
  hospitalName: string | null
  /**
   * My request to add the hospital (找不到我的医院？). While it waits (待添加) it stands in for the
   * hospital; once added the hospital fills in; declined (未添加) the person chooses again.
   */
  hospitalRequest: HospitalRequest | null
  department: string
  title: ExpertTitle | null
  practiceCertificateNo: string
  qualificationCertificateNo: string
  practiceCategory: PracticeCategory | null
  practiceScope: string
  specialities: string[]
  introduction: string
}

export type FieldName = Exclude<keyof CertificationValues, 'hospitalName' | 'hospitalRequest'>
/** A field's message, the photos' and the agreement's. */
export type ProblemKey = FieldName | 'photos' | 'agreement'
export type Problems = Partial<Record<ProblemKey, string>>

export const EMPTY_VALUES: CertificationValues = {
  hospitalId: null,
  hospitalName: null,
  hospitalRequest: null,
  department: '',
  title: null,
  practiceCertificateNo: '',
  qualificationCertificateNo: '',
  practiceCategory: null,
  practiceScope: '',
  specialities: [],
  introduction: '',
}

/** The form filled from an application (a draft, a rejected one to fix, the certified values). */
export function valuesOf(application: ExpertApplication | null): CertificationValues {
  if (!application) return EMPTY_VALUES
  return {
    hospitalId: application.hospitalId,
    hospitalName: application.hospitalName,
    hospitalRequest: application.hospitalRequest,
    department: application.department ?? '',
    title: application.title,
    practiceCertificateNo: application.practiceCertificateNo ?? '',
    qualificationCertificateNo: application.qualificationCertificateNo ?? '',
    practiceCategory: application.practiceCategory,
    practiceScope: application.practiceScope ?? '',
    specialities: application.specialities,
    introduction: application.introduction.slice(0, INTRODUCTION_MAX),
  }
}

/**
 * The draft to save: every field the person filled in, trimmed; an empty one is left out (the
 * server keeps what it had, and a draft may be half done).
 */
export function draftOf(values: CertificationValues): ExpertDraft {
  const text = (value: string) => (value.trim() === '' ? undefined : value.trim())
  const waiting = values.hospitalId === null && values.hospitalRequest?.status === 'pending'
  const draft: ExpertDraft = {
    hospitalId: values.hospitalId ?? undefined,
    // Saving the request in place of a hospital; the server clears the one not sent.
    hospitalRequestId: waiting ? values.hospitalRequest?.id : undefined,
    department: text(values.department),
    title: values.title ?? undefined,
    practiceCertificateNo: text(values.practiceCertificateNo),
    qualificationCertificateNo: text(values.qualificationCertificateNo),
    practiceCategory: values.practiceCategory ?? undefined,
    practiceScope: text(values.practiceScope),
    specialities: values.specialities.length > 0 ? values.specialities : undefined,
    introduction: values.introduction.trim(),
  }
  return Object.fromEntries(
    Object.entries(draft).filter(([, value]) => value !== undefined),
  ) as ExpertDraft
}

/** What an empty required field says on submit, in the contract's words. */
const REQUIRED: Record<Exclude<FieldName, 'introduction'>, string> = {
  hospitalId: EXPERT_MESSAGES.hospitalRequired,
  department: EXPERT_MESSAGES.departmentRequired,
  title: EXPERT_MESSAGES.titleRequired,
  practiceCertificateNo: EXPERT_MESSAGES.practiceCertificate,
  qualificationCertificateNo: EXPERT_MESSAGES.qualificationCertificate,
  practiceCategory: EXPERT_MESSAGES.categoryRequired,
  practiceScope: EXPERT_MESSAGES.scopeRequired,
  specialities: EXPERT_MESSAGES.specialitiesRequired,
}

/** The order the form shows its fields in: the first problem in it is the one scrolled to. */
export const PROBLEM_ORDER: readonly ProblemKey[] = [
  'hospitalId',
  'department',
  'title',
  'practiceCertificateNo',
  'qualificationCertificateNo',
  'practiceCategory',
  'practiceScope',
  'specialities',
  'introduction',
  'photos',
  'agreement',
]

/** Each filled-in field against the contract's draft schema: what 保存草稿 checks. */
export function draftProblems(values: CertificationValues): Problems {
  const parsed = z.safeParse(ExpertDraftSchema, draftOf(values))
  const problems: Problems = {}
  if (parsed.success) return problems
  for (const issue of parsed.error.issues) {
    const key = issue.path[0] as FieldName | undefined
    if (key && problems[key] === undefined) problems[key] = issue.message
  }
  return problems
}

/** Photos of a kind the application has. */
export function photoCount(application: ExpertApplication | null, kind: ExpertPhotoKind): number {
  return application?.photos.filter((photo) => photo.kind === kind).length ?? 0
}

/**
 * What 提交审核 checks before asking: the draft's checks, every required field, the practice
 * certificate's two pages, and the agreement ticked at the version on screen.
 */
export function submitProblems(
  values: CertificationValues,
  application: ExpertApplication | null,
  agreed: boolean,
): Problems {
  const problems = draftProblems(values)
  const draft = draftOf(values)
  for (const [key, message] of Object.entries(REQUIRED) as [FieldName, string][]) {
    if (draft[key as keyof ExpertDraft] === undefined && problems[key] === undefined) {
      problems[key] = message
    }
  }
  // A request waiting to be added counts as the hospital (approval waits for it, not submission);
  // a declined one does not, and the server says so in these words.
  if (draft.hospitalRequestId !== undefined) delete problems.hospitalId
  else if (values.hospitalId === null && values.hospitalRequest?.status === 'declined') {
    problems.hospitalId = HOSPITAL_REQUEST_MESSAGES.declined
  }
  if (!EXPERT_REQUIRED_PHOTO_KINDS.every((kind) => photoCount(application, kind) > 0)) {
    problems.photos = EXPERT_MESSAGES.photosMissing
  }
  if (!agreed) problems.agreement = EXPERT_MESSAGES.agreementRequired
  return problems
}

export function firstProblem(problems: Problems): ProblemKey | null {
  return PROBLEM_ORDER.find((key) => problems[key] !== undefined) ?? null
}

/** The element id of a field on the form, for scrolling to the first one with a message. */
export function fieldId(key: ProblemKey): string {
  return `cert-${key}`
}
