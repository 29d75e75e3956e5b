import { useState } from 'react'
import { REPORT_PHOTOS_PER_EXAM } from '@contract/main/dicom-upload'
import { pickPhotos } from '@/platform/file-picker'
import { showModal, showToast } from '@/platform/ui'
import { describeError } from '@/services/api'
import {
  deleteDicomReport,
  deleteReportPhoto,
  saveDicomReport,
  uploadReportPhoto,
  type SaveDicomReportInput,
} from '@/services/dicom-upload'
import { back } from '@/services/navigate'
import type { ExamDetail } from '@/services/records'

export type UploadedExamRecord = Omit<SaveDicomReportInput, 'examId'>

export interface UploadedExamModel {
  editing: boolean
  setEditing: (editing: boolean) => void
  saving: boolean
  /** Report photos being uploaded. */
  adding: boolean
  save: (input: UploadedExamRecord) => Promise<void>
  addPhotos: () => Promise<void>
  removePhoto: (fileId: string) => Promise<void>
  /** 删除影像: the study, its files and its photos, after confirming; then back. */
  removeStudy: () => Promise<void>
}

/**
 * 报告详情 (ys), one study the person uploaded: edit its record, add and remove report photos
 * (re-encoded without EXIF by the server), delete it. `reload` asks for the exam again after a
 * change, so the page shows what the server kept.
 */
export function useUploadedExam(exam: ExamDetail, reload: () => void): UploadedExamModel {
  const [editing, setEditing] = useState(false)
  const [saving, setSaving] = useState(false)
  const [adding, setAdding] = useState(false)

  const save = async (input: UploadedExamRecord) => {
    setSaving(true)
    try {
      await saveDicomReport({ examId: exam.id, ...input })
      showToast('已保存')
      setEditing(false)
      reload()
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setSaving(false)
    }
  }

  const addPhotos = async () => {
    let paths: string[]
    try {
      paths = await pickPhotos(Math.min(9, REPORT_PHOTOS_PER_EXAM - exam.files.length))
    } catch (error) {
      showToast(describeError(error, '无法读取照片，请重新选择'))
      return
    }
    if (paths.length === 0) return
    setAdding(true)
    try {
      for (const path of paths) await uploadReportPhoto(exam.id, path)
    } catch (error) {
      showToast(describeError(error))
    } finally {
      setAdding(false)
      reload()
    }
  }

  const removePhoto = async (fileId: string) => {
    if (!(await showModal({ title: '删除照片', content: '确定删除这张报告照片？' }))) return
    try {
      await deleteReportPhoto(fileId)
      reload()
    } catch (error) {
      showToast(describeError(error))
    }
  }

  const removeStudy = async () => {
    const confirmed = await showModal({
      title: '删除影像',
      content: '删除后影像文件和报告照片将被永久删除，无法恢复。确定删除？',
      confirmText: '删除',
    })
    if (!confirmed) return
    try {
      await deleteDicomReport(exam.id)
      showToast('已删除')
      void back()
    } catch (error) {
      showToast(describeError(error))
    }
  }

  return { editing, setEditing, saving, adding, save, addPhotos, removePhoto, removeStudy }
}
