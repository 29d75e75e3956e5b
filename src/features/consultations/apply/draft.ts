import { z } from 'zod/mini'
import {
  CONSULT_MESSAGES,
  CONSULT_RECORDS_MAX,
  type ConsultApplicationInput,
  ConsultApplicationInputSchema,
  type ConsultService,
  EXTERNAL_EXAMS_MAX,
} from '@/services/consultations'
import type { ConsultDraft } from './draft-store'

/*
 * The application's rules, apart from React. Field checks are the contract's own schema and words
 * (ConsultApplicationInputSchema, CONSULT_MESSAGES), so the app never words a rule differently
 * from the server that enforces it; the records rules (at least one, 影像会诊 needs an exam) are
 * the server's too, checked here so the person learns on the page that can fix them.
 */

export type ApplyField =
  | 'person'
  | 'chiefComplaint'
  | 'presentIllness'
  | 'pastHistory'
  | 'allergies'
  | 'questions'
  | 'seenOffline'
  | 'offlinePictures'
export type ExamineField = 'records' | 'externalExams'
export type Problems<K extends string> = Partial<Record<K, string>>

/** What createConsultation takes, from the draft, the price the person saw and their consent. */
export function applicationInput(
  draft: ConsultDraft,
  expertId: string,
  service: ConsultService,
  priceFen: number,
  consent: { accepted: boolean; version: string },
): ConsultApplicationInput {
  return {
    expertId,
    service,
    ...(draft.personId && !draft.personSelf ? { personId: draft.personId } : {}),
    chiefComplaint: draft.chiefComplaint.trim(),
    presentIllness: draft.presentIllness.trim(),
    pastHistory: draft.pastHistory.trim(),
    allergies: draft.allergies.trim(),
    questions: draft.questions.trim(),
    // Unanswered is sent as such and refused in the contract's words.
    seenOffline: draft.seenOffline as boolean,
    offlinePictureIds: draft.offlinePictures.map((picture) => picture.id),
    examIds: draft.records.filter((record) => record.kind === 'exam').map((record) => record.id),
    reportIds: draft.records
      .filter((record) => record.kind === 'report')
      .map((record) => record.id),
    externalExams: draft.externalExams.map((exam) => ({
      hospital: exam.hospital.trim(),
      date: exam.date,
      type: exam.type.trim(),
      pictureIds: exam.pictures.map((picture) => picture.id),
    })),
    priceFen,
    consent,
  }
}

const FIELD_OF: Record<string, ApplyField | ExamineField | undefined> = {
  personId: 'person',
  chiefComplaint: 'chiefComplaint',
  presentIllness: 'presentIllness',
  pastHistory: 'pastHistory',
  allergies: 'allergies',
  questions: 'questions',
  seenOffline: 'seenOffline',
  offlinePictureIds: 'offlinePictures',
  examIds: 'records',
  reportIds: 'records',
  externalExams: 'externalExams',
}

function schemaProblems(draft: ConsultDraft): Problems<ApplyField | ExamineField> {
  const input = applicationInput(draft, 'x', 'text', 0, { accepted: true, version: 'x' })
  const parsed = z.safeParse(ConsultApplicationInputSchema, input)
  const problems: Problems<ApplyField | ExamineField> = {}
  if (parsed.success) return problems
  for (const issue of parsed.error.issues) {
    const field = FIELD_OF[String(issue.path[0])]
    if (field && problems[field] === undefined) problems[field] = issue.message
  }
  return problems
}

/** 会诊申请's checks: the 就诊人 (with a bound ID card), the texts, seen offline or not. */
export function applyProblems(
  draft: ConsultDraft,
  personIdCardBound: boolean | null,
): Problems<ApplyField> {
  const all = schemaProblems(draft)
  const problems: Problems<ApplyField> = {}
  const fields: ApplyField[] = [
    'chiefComplaint',
    'presentIllness',
    'pastHistory',
    'allergies',
    'questions',
    'seenOffline',
    'offlinePictures',
  ]
  if (draft.personId === null) problems.person = CONSULT_MESSAGES.personRequired
  else if (personIdCardBound === false) problems.person = CONSULT_MESSAGES.idCardRequired
  for (const field of fields) if (all[field]) problems[field] = all[field]
  if (draft.seenOffline === null) problems.seenOffline = CONSULT_MESSAGES.seenOfflineRequired
  return problems
}

/** 检查信息's checks: something to look at, an exam for 影像会诊, outside exams complete. */
export function examineProblems(
  draft: ConsultDraft,
  service: ConsultService,
): Problems<ExamineField> {
  const problems: Problems<ExamineField> = {}
  const exams = draft.records.filter((record) => record.kind === 'exam').length
  const reports = draft.records.length - exams
  if (exams > CONSULT_RECORDS_MAX || reports > CONSULT_RECORDS_MAX) {
    problems.records = CONSULT_MESSAGES.recordsTooMany
  } else if (service === 'imaging' && exams === 0) {
    problems.records = CONSULT_MESSAGES.imagingNeedsExam
  } else if (draft.records.length === 0 && draft.externalExams.length === 0) {
    problems.records = CONSULT_MESSAGES.recordsRequired
  }
  if (draft.externalExams.length > EXTERNAL_EXAMS_MAX) {
    problems.externalExams = CONSULT_MESSAGES.externalTooMany
  } else {
    const external = schemaProblems(draft).externalExams
    if (external) problems.externalExams = external
  }
  return problems
}

export function firstProblem<K extends string>(problems: Problems<K>): string | null {
  const values = Object.values(problems).filter((value): value is string => Boolean(value))
  return values[0] ?? null
}

/** 2026-11-02 · 胸部CT 平扫: what a chosen record shows under its title. */
export function recordDetail(hospital: string | null, date: string | null): string {
  return [hospital, date].filter(Boolean).join(' · ')
}
