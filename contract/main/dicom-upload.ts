import { z } from 'zod/mini'
import { IdSchema, OkSchema } from '../common'
import { defineEndpoint } from '../endpoint'
import { DateSchema, ExamFileSchema, ExamStatusSchema } from './records'

/*
 * The patient's own DICOM uploads (personalReport/index-ys, detail-ys): a zip sent in resumable
 * chunks, then unpacked and parsed on the server while the app polls its state; the study's record
 * (save dicom report), photos of the paper report, and deletes that remove the stored files.
 *
 * Upload protocol:
 * 1. start (file name, size): the size is reserved against the storage quota; the answer names the
 *    upload and the chunk size the server expects.
 * 2. PUT the bytes in order: `PUT /main/dicom-upload/:uploadId/chunk?offset=N`, body
 *    `application/octet-stream`, exactly chunkSize bytes (the last chunk: the rest). A chunk already
 *    received is answered again without being written; a chunk at any other offset than
 *    receivedBytes answers 409 with the expected offset in the message. After a dropped connection,
 *    getUpload says receivedBytes: continue from there.
 * 3. finish: the zip is complete; the server queues it. 4. poll getUpload until ready or failed.
 *
 * Several DICOM files (a folder on H5, files from a chat on weapp) use the same protocol: start
 * carries `files`, the list of (name, size) in order, and the bytes sent are those files
 * concatenated. The server cuts them apart by the sizes, so no zip is needed and the same limits,
 * quota and resumable chunks apply.
 */

export const DICOM_UPLOAD_CHUNK_PATH = '/main/dicom-upload/:uploadId/chunk'
export const dicomUploadChunkPath = (uploadId: string, offset: number) =>
  `/main/dicom-upload/${encodeURIComponent(uploadId)}/chunk?offset=${offset}`
/** 4 MiB: few requests for a big zip, little to resend after a dropped connection. */
export const DICOM_UPLOAD_CHUNK_BYTES = 4 * 1024 * 1024
/**
 * One zip at most 2000 MB (a disc of a CT/MR study fits; sizes are 32-bit integers in the database);
 * bigger ones are sent in parts.
 */
export const DICOM_UPLOAD_MAX_BYTES = 2000 * 1024 * 1024

/** Report photos: at most 9 per request, 10 MB each, JPG or PNG (re-encoded as JPEG). */
export const REPORT_PHOTO_MAX_BYTES = 10 * 1024 * 1024
export const REPORT_PHOTOS_PER_REQUEST = 9
export const REPORT_PHOTOS_PER_EXAM = 30
export const REPORT_PHOTOS_PATH = '/main/dicom-upload/exams/:examId/photos'
export const reportPhotosPath = (examId: string) =>
  `/main/dicom-upload/exams/${encodeURIComponent(examId)}/photos`
/** The photo itself (image/jpeg), for the owner: fetched with the bearer token (download). */
export const reportPhotoPath = (fileId: string) =>
  `/main/dicom-upload/files/${encodeURIComponent(fileId)}`

/** Files of one upload without a zip (a disc's folder holds a few hundred to a few thousand). */
export const DICOM_UPLOAD_MAX_FILES = 5000
/**
 * A file of a several-files upload is at least this big: a DICOM Part 10 file starts with a
 * 128-byte preamble and `DICM`. The app leaves smaller files out; the server refuses them.
 */
export const DICOM_FILE_MIN_BYTES = 132
/**
 * A name in the file list at most this many bytes as JSON text (UTF-8): 5000 of them fit in one
 * request body (1 MiB). The app shortens longer paths (keeping the folder and the file's name).
 */
export const DICOM_UPLOAD_NAME_MAX_BYTES = 160

const FileNameSchema = z
  .string()
  .check(z.minLength(1, '请选择要上传的文件'), z.maxLength(255, '文件名过长，请改短后重试'))

/** One file of a several-files upload: its name (a path inside the chosen folder) and size. */
export const UploadManifestFileSchema = z.object({
  name: z
    .string()
    .check(z.minLength(1, '文件名不能为空'), z.maxLength(255, '文件名过长，请改短后重试')),
  size: z.number().check(z.int('文件大小不正确'), z.minimum(0, '文件大小不正确')),
})
export type UploadManifestFile = z.infer<typeof UploadManifestFileSchema>

export const UploadStateSchema = z.object({
  uploadId: z.string(),
  fileName: z.string(),
  totalBytes: z.number(),
  receivedBytes: z.number(),
  chunkSize: z.number(),
  /** receiving 上传中 → processing 解析中 → ready 可查看 | failed 失败 (message says why). */
  status: ExamStatusSchema,
  statusLabel: z.string(),
  /** Why it failed, or what was left out (压缩包中有 3 个文件不是 DICOM，已跳过); null otherwise. */
  message: z.nullable(z.string()),
  /** The studies it became (a zip may hold several). */
  examIds: z.array(z.string()),
  storedCount: z.number(),
  duplicateCount: z.number(),
  skippedCount: z.number(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type UploadState = z.infer<typeof UploadStateSchema>

export const startDicomUpload = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/dicom-upload',
  input: z.object({
    fileName: FileNameSchema,
    size: z
      .number()
      .check(
        z.int('文件大小不正确'),
        z.minimum(1, '文件是空的，请重新选择'),
        z.maximum(DICOM_UPLOAD_MAX_BYTES, '一次上传不能超过 2000 MB，请分批上传'),
      ),
    /** Several DICOM files instead of a zip: their names and sizes, in the order sent. */
    files: z.optional(
      z
        .array(UploadManifestFileSchema)
        .check(
          z.minLength(1, '请选择要上传的文件'),
          z.maxLength(
            DICOM_UPLOAD_MAX_FILES,
            `一次最多上传 ${DICOM_UPLOAD_MAX_FILES} 个文件，请分批上传`,
          ),
        ),
    ),
  }),
  output: UploadStateSchema,
  auth: true,
  summary:
    '开始上传 DICOM 压缩包（zip）或多个 DICOM 文件（files 列出各文件；分片上传；先占用存储配额）',
})

export const getDicomUpload = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/dicom-upload/:uploadId',
  input: z.object({ uploadId: IdSchema }),
  output: UploadStateSchema,
  auth: true,
  summary: '上传状态（已接收字节数，上传中/解析中/可查看/失败及原因）',
})

export const finishDicomUpload = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/dicom-upload/:uploadId/finish',
  input: z.object({ uploadId: IdSchema }),
  output: UploadStateSchema,
  auth: true,
  summary: '上传完成，开始解析',
})

export const cancelDicomUpload = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/dicom-upload/:uploadId',
  input: z.object({ uploadId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '取消上传（上传中），或删除一条失败的上传记录',
})

export const StorageQuotaSchema = z.object({ usedBytes: z.number(), quotaBytes: z.number() })
export type StorageQuota = z.infer<typeof StorageQuotaSchema>

export const getStorageQuota = defineEndpoint({
  service: 'main',
  method: 'GET',
  path: '/dicom-upload/quota',
  input: z.object({}),
  output: StorageQuotaSchema,
  auth: true,
  summary: '我的存储空间（已用 / 总量）',
})

const TextSchema = (max: number, label: string) =>
  z.nullable(z.string().check(z.maxLength(max, `${label}不能超过 ${max} 个字`)))

/** save dicom report: what the patient says about an uploaded study (null clears a field). */
export const saveDicomReport = defineEndpoint({
  service: 'main',
  method: 'POST',
  path: '/dicom-upload/exams/:examId',
  input: z.object({
    examId: IdSchema,
    title: z.optional(TextSchema(50, '标题')),
    hospitalText: z.optional(TextSchema(50, '医院名称')),
    studyDate: z.optional(z.nullable(DateSchema)),
    notes: z.optional(TextSchema(500, '备注')),
  }),
  output: OkSchema,
  auth: true,
  summary: '保存上传影像的信息（标题、医院、检查日期、备注）',
})

export const deleteDicomReport = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/dicom-upload/exams/:examId',
  input: z.object({ examId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '删除上传的影像（连同存储的文件和照片）',
})

export const deleteDicomInstance = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/dicom-upload/exams/:examId/instances/:instanceId',
  input: z.object({ examId: IdSchema, instanceId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '删除上传影像中的一个文件',
})

/** delete files by file detail id: a photo of the paper report. */
export const deleteReportPhoto = defineEndpoint({
  service: 'main',
  method: 'DELETE',
  path: '/dicom-upload/files/:fileId',
  input: z.object({ fileId: IdSchema }),
  output: OkSchema,
  auth: true,
  summary: '删除报告照片',
})

/** Answer of REPORT_PHOTOS_PATH (multipart, fields named `file`, images only). */
export const ReportPhotosSchema = z.object({ files: z.array(ExamFileSchema) })
export type ReportPhotos = z.infer<typeof ReportPhotosSchema>
