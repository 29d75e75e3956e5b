import {
  GRANT_MAX_VIEWS_MAX,
  GRANT_RECORDS_MAX,
  GRANT_MESSAGES,
  type GrantAudience,
  type GrantDuration,
  type NewGrant,
} from '@/services/grants'
import type { ExamSummary, ReportDetail } from '@/services/records'
import { mobile as isMobile } from '@/utils/validators'

/**
 * What the 授权 sheet offers and collects, kept apart from the sheet so its rules are tested
 * directly: which records are ticked at first, and what the chosen values become as createGrant's
 * input (or the message that says why not).
 */

/** One record the sheet offers: the exam's images, or its report. */
export interface GrantChoice {
  kind: 'exam' | 'report'
  id: string
  /** 影像 · 胸部 CT 平扫 */
  label: string
  /** Under the label: 正式报告, 3 个序列 ... */
  note: string
  private: boolean
}

export interface GrantFormState {
  /** Ids of the ticked choices. */
  picked: string[]
  audience: GrantAudience
  mobile: string
  duration: GrantDuration
  pickupCode: boolean
  /** '' = no limit. */
  maxViews: string
}

/** What a detail page knows of the exam and its report. */
export interface GrantSubject {
  examId: string
  title: string
  /** Nothing to share as images (an upload still being read, a failed one). */
  hasImages: boolean
  /** null where the page does not know (the report page). */
  seriesCount: number | null
  report: { id: string; statusLabel: string; private: boolean } | null
}

/** 影像详情's exam (or a line of the person's exam list): images once viewable, and its report. */
export function subjectOfExam(exam: ExamSummary): GrantSubject {
  return {
    examId: exam.id,
    title: exam.title,
    hasImages: exam.status === 'ready' && exam.seriesCount > 0,
    seriesCount: exam.seriesCount,
    report: exam.report
      ? { id: exam.report.id, statusLabel: exam.report.statusLabel, private: exam.report.private }
      : null,
  }
}

/** 报告详情's report and the images of its exam (the server refuses them if none arrived). */
export function subjectOfReport(report: ReportDetail): GrantSubject {
  return {
    examId: report.examId,
    title: report.title,
    hasImages: true,
    seriesCount: null,
    report: { id: report.id, statusLabel: report.statusLabel, private: report.private },
  }
}

export function choicesOf(subject: GrantSubject): GrantChoice[] {
  const choices: GrantChoice[] = []
  if (subject.hasImages) {
    choices.push({
      kind: 'exam',
      id: subject.examId,
      label: `影像 · ${subject.title || '未命名检查'}`,
      note: subject.seriesCount ? `${subject.seriesCount} 个序列` : '本次检查的全部影像',
      private: false,
    })
  }
  if (subject.report) {
    choices.push({
      kind: 'report',
      id: subject.report.id,
      label: `报告 · ${subject.title || '未命名检查'}`,
      note: subject.report.private
        ? `${subject.report.statusLabel} · 隐私报告，仅在勾选时授权`
        : subject.report.statusLabel,
      private: subject.report.private,
    })
  }
  return choices
}

/**
 * The same person's other exams, offered below the one the page shows (授权 of several records at
 * once): each exam's images and report, with where and when to tell them apart, none ticked.
 */
export function otherChoicesOf(exams: readonly ExamSummary[], shownExamId: string): GrantChoice[] {
  return exams
    .filter((exam) => exam.id !== shownExamId)
    .flatMap((exam) => {
      const where = [exam.studyDate, exam.hospital?.name ?? exam.hospitalText]
        .filter(Boolean)
        .join(' · ')
      return choicesOf(subjectOfExam(exam)).map((choice) => ({
        ...choice,
        note: where ? `${where} · ${choice.note}` : choice.note,
      }))
    })
}

/**
 * The images, and the report unless it is private: a private report goes only when the person
 * ticks it themselves. `focus` (the report page) ticks that record even when private: the person
 * is sharing the report they are looking at.
 */
export function initialForm(choices: GrantChoice[], focus?: string): GrantFormState {
  return {
    picked: choices
      .filter((choice) => choice.id === focus || !choice.private)
      .map((choice) => choice.id),
    audience: 'link',
    mobile: '',
    duration: '24h',
    pickupCode: true,
    maxViews: '',
  }
}

export type GrantFormResult = { ok: true; input: NewGrant } | { ok: false; message: string }

export function toGrantInput(
  state: GrantFormState,
  choices: GrantChoice[],
  personId?: string,
): GrantFormResult {
  const picked = choices.filter((choice) => state.picked.includes(choice.id))
  if (picked.length === 0) return { ok: false, message: GRANT_MESSAGES.noRecords }
  if (picked.length > GRANT_RECORDS_MAX)
    return { ok: false, message: GRANT_MESSAGES.tooManyRecords }
  const input: NewGrant = {
    audience: state.audience,
    examIds: picked.filter((one) => one.kind === 'exam').map((one) => one.id),
    reportIds: picked.filter((one) => one.kind === 'report').map((one) => one.id),
    duration: state.duration,
  }
  if (personId) input.personId = personId
  if (state.audience === 'account') {
    const phone = state.mobile.trim()
    if (phone === '') return { ok: false, message: GRANT_MESSAGES.mobileRequired }
    if (!isMobile(phone)) return { ok: false, message: '请输入正确的手机号' }
    input.mobile = phone
    return { ok: true, input }
  }
  input.pickupCode = state.pickupCode
  const limit = state.maxViews.trim()
  if (limit !== '') {
    const views = Number(limit)
    if (!/^\d+$/.test(limit) || views < 1 || views > GRANT_MAX_VIEWS_MAX) {
      return { ok: false, message: GRANT_MESSAGES.maxViews }
    }
    input.maxViews = views
  }
  return { ok: true, input }
}

/** What 复制链接 puts on the clipboard: the link, and the code on its own line when there is one. */
export function copyText(link: { url: string; pickupCode: string | null }): string {
  return link.pickupCode ? `${link.url}\n提取码：${link.pickupCode}` : link.url
}
