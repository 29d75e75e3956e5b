import { useDidShow } from '@tarojs/taro'
import { useCallback, useEffect, useRef, useState } from 'react'
import { type PagedList, usePagedList } from '@/components/refresh-list'
import { showModal, showToast } from '@/platform/ui'
import { CONSULT_MESSAGES, type ConsultService, EXTERNAL_EXAMS_MAX } from '@/services/consultations'
import {
  type ExamSummary,
  listExams,
  listPersonalReports,
  type ReportListItem,
} from '@/services/records'
import {
  examineProblems,
  type ExamineField,
  firstProblem,
  type Problems,
  recordDetail,
} from '../draft'
import type { ChosenRecord, ExternalExamDraft } from '../draft-store'
import { type DraftHandle, useConsultDraft } from './use-consult-draft'
import { type PictureUpload, usePictureUpload } from './use-picture-upload'

/** Records a page of 检查信息 lists at a time (the server allows up to 50). */
const RECORDS_PAGE = 20

export interface ExamineModel extends DraftHandle {
  service: ConsultService
  exams: PagedList<ExamSummary>
  reports: PagedList<ReportListItem>
  isChosen: (kind: ChosenRecord['kind'], id: string) => boolean
  toggleExam: (exam: ExamSummary) => void
  toggleReport: (report: ReportListItem) => Promise<void>
  removeRecord: (record: ChosenRecord) => void
  addExternal: () => void
  updateExternal: (index: number, patch: Partial<ExternalExamDraft>) => void
  removeExternal: (index: number) => void
  addExternalPictures: (index: number) => Promise<void>
  pictures: PictureUpload
  problems: Problems<ExamineField>
  next: () => boolean
}

export const PRIVATE_REPORT_CONFIRM = {
  title: '提供隐私报告',
  content:
    '这是一份您设为隐私的报告。勾选后，专家在本次咨询期间可以查看它的全部内容。确定要提供吗？',
  confirmText: '确定提供',
} as const

function examRecord(exam: ExamSummary): ChosenRecord {
  return {
    kind: 'exam',
    id: exam.id,
    examId: exam.id,
    title: exam.title,
    detail: recordDetail(exam.hospital?.name ?? exam.hospitalText, exam.studyDate),
    private: false,
  }
}

function reportRecord(report: ReportListItem): ChosenRecord {
  return {
    kind: 'report',
    id: report.id,
    examId: report.examId,
    title: report.title,
    detail: recordDetail(report.hospital.name, report.studyDate),
    private: report.private,
  }
}

/**
 * 检查信息: that person's exams and reports from 我的影像 / 个人报告 (a private report only when ticked
 * on purpose), a new upload through the existing flow, and exams done elsewhere (院外检查).
 */
export function useExamine(expertId: string, service: ConsultService): ExamineModel {
  const handle = useConsultDraft(expertId, service)
  const { draft, update } = handle
  const [tried, setTried] = useState(false)
  const pictures = usePictureUpload()
  const personId = draft.personSelf ? undefined : (draft.personId ?? undefined)
  const person = personId ? { personId } : {}

  const exams = usePagedList<ExamSummary>(
    async (page) => {
      const answer = await listExams({ ...person, page, pageSize: RECORDS_PAGE })
      return { items: answer.items, total: answer.total }
    },
    { pageSize: RECORDS_PAGE },
  )
  const reports = usePagedList<ReportListItem>(
    async (page) => {
      const answer = await listPersonalReports({
        ...person,
        includePrivate: true,
        page,
        pageSize: RECORDS_PAGE,
      })
      return { items: answer.items, total: answer.total }
    },
    { pageSize: RECORDS_PAGE },
  )

  // Back from the upload flow: the new study is in the list.
  const shown = useRef(false)
  useDidShow(() => {
    if (!shown.current) {
      shown.current = true
      return
    }
    void exams.refresh()
    void reports.refresh()
  })

  // A record handed in from 影像详情 / 报告详情 gets its real title once the list has it.
  useEffect(() => {
    const found = new Map<string, ChosenRecord>()
    for (const exam of exams.items) found.set(`exam:${exam.id}`, examRecord(exam))
    for (const report of reports.items) found.set(`report:${report.id}`, reportRecord(report))
    const stale = draft.records.some((record) => {
      const fresh = found.get(`${record.kind}:${record.id}`)
      return fresh !== undefined && (fresh.title !== record.title || fresh.detail !== record.detail)
    })
    if (!stale) return
    update((current) => ({
      records: current.records.map((record) => found.get(`${record.kind}:${record.id}`) ?? record),
    }))
  }, [exams.items, reports.items, draft.records, update])

  const isChosen = useCallback(
    (kind: ChosenRecord['kind'], id: string) =>
      draft.records.some((record) => record.kind === kind && record.id === id),
    [draft.records],
  )

  const removeRecord = useCallback(
    (gone: ChosenRecord) =>
      update((current) => ({
        records: current.records.filter(
          (record) => !(record.kind === gone.kind && record.id === gone.id),
        ),
      })),
    [update],
  )

  const toggleExam = useCallback(
    (exam: ExamSummary) => {
      if (isChosen('exam', exam.id)) return removeRecord(examRecord(exam))
      if (exam.status !== 'ready') return showToast(`该检查${exam.statusLabel}，暂不能提供给专家`)
      update((current) => ({ records: [...current.records, examRecord(exam)] }))
    },
    [isChosen, removeRecord, update],
  )

  const toggleReport = useCallback(
    async (report: ReportListItem) => {
      if (isChosen('report', report.id)) return removeRecord(reportRecord(report))
      // A private report is shared only when the person says so, knowing it is private.
      if (report.private && !(await showModal(PRIVATE_REPORT_CONFIRM))) return
      update((current) => ({ records: [...current.records, reportRecord(report)] }))
    },
    [isChosen, removeRecord, update],
  )

  const addExternal = useCallback(() => {
    if (draft.externalExams.length >= EXTERNAL_EXAMS_MAX) {
      return showToast(CONSULT_MESSAGES.externalTooMany)
    }
    update((current) => ({
      externalExams: [...current.externalExams, { hospital: '', date: '', type: '', pictures: [] }],
    }))
  }, [draft.externalExams.length, update])

  const updateExternal = useCallback(
    (index: number, patch: Partial<ExternalExamDraft>) =>
      update((current) => ({
        externalExams: current.externalExams.map((exam, at) =>
          at === index ? { ...exam, ...patch } : exam,
        ),
      })),
    [update],
  )

  const removeExternal = useCallback(
    (index: number) =>
      update((current) => ({
        externalExams: current.externalExams.filter((_exam, at) => at !== index),
      })),
    [update],
  )

  const addExternalPictures = useCallback(
    (index: number) =>
      pictures.add(draft.externalExams[index]?.pictures.length ?? 0, (picture) =>
        update((current) => ({
          externalExams: current.externalExams.map((exam, at) =>
            at === index ? { ...exam, pictures: [...exam.pictures, picture] } : exam,
          ),
        })),
      ),
    [pictures, draft.externalExams, update],
  )

  const problems = examineProblems(draft, service)
  const next = useCallback(() => {
    setTried(true)
    const first = firstProblem(problems)
    if (first) {
      showToast(first)
      return false
    }
    if (pictures.uploading > 0) {
      showToast('图片上传中，请稍候')
      return false
    }
    return true
  }, [problems, pictures.uploading])

  return {
    ...handle,
    service,
    exams,
    reports,
    isChosen,
    toggleExam,
    toggleReport,
    removeRecord,
    addExternal,
    updateExternal,
    removeExternal,
    addExternalPictures,
    pictures,
    problems: tried ? problems : {},
    next,
  }
}
