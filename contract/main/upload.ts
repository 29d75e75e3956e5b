import { z } from 'zod/mini'

/**
 * Uploads are multipart (one file field named `file`), so their input is not a zod object; the
 * answer is an envelope like every other call.
 */
export const UPLOAD_AVATAR_PATH = '/main/upload/avatar'
/** 2 MB; the app crops and compresses before sending. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const

export const UploadedFileSchema = z.object({ url: z.string() })
export type UploadedFile = z.infer<typeof UploadedFileSchema>
