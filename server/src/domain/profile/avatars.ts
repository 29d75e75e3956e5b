import { randomBytes, randomUUID } from 'node:crypto'
import { mkdir, unlink, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { AVATAR_MAX_BYTES } from '@contract/main/upload'
import type { DB } from '../../db'
import { badRequest, tooManyRequests } from '../../http/errors'
import { asStorageFull } from '../../storage'
import { type ImageType, sniffImageType } from '../../images'
import { describeWait, HOUR } from '../identity'
import { type LimitRule, peek, release, reserve } from '../limits'

/** Where uploads are served (read-only); the rest of the URL is the file's storage key. */
export const UPLOADS_URL_PREFIX = '/uploads/'
/** A person re-cropping a few times is fine; a script filling the disk is not. */
export const AVATAR_UPLOADS_PER_HOUR = 20

const EXTENSIONS: Record<ImageType, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/webp': 'webp',
}

export const AVATAR_TYPE_REFUSED = '头像只支持 JPG、PNG 或 WebP 图片'
export const AVATAR_TOO_LARGE = '头像图片不能超过 2 MB，请裁剪或压缩后重试'
export const AVATAR_URL_REFUSED = '头像地址无效，请重新上传头像'

function avatarRule(userId: string): LimitRule {
  return { key: `avatar-user:${userId}`, limit: AVATAR_UPLOADS_PER_HOUR, windowMs: HOUR }
}

function avatarRateLimited(waitMs: number) {
  return tooManyRequests(`上传过于频繁，请 ${describeWait(waitMs)}后再试`)
}

/**
 * An early look before the upload is read, so a refused person does not send 2 MB for nothing. It
 * takes no slot: saveAvatar reserves one before it writes the file.
 */
export async function checkAvatarRate(db: DB, userId: string, now: Date): Promise<void> {
  const wait = await peek(db, { ...avatarRule(userId), now })
  if (wait > 0) throw avatarRateLimited(wait)
}

/**
 * Stores an avatar under UPLOAD_DIR/avatars with a random name (never the client's) and records
 * whose it is, so deleting the account can delete the file. Answers its public URL.
 */
export async function saveAvatar(
  db: DB,
  uploadDir: string,
  input: { userId: string; bytes: Buffer },
  now: Date,
): Promise<{ url: string }> {
  if (input.bytes.length > AVATAR_MAX_BYTES) throw badRequest(AVATAR_TOO_LARGE)
  const type = sniffImageType(input.bytes)
  if (!type) throw badRequest(AVATAR_TYPE_REFUSED)
  // Reserved before the file is written: parallel uploads cannot pass the hourly quota.
  const slot = await reserve(db, { ...avatarRule(input.userId), now })
  if (!slot.ok) throw avatarRateLimited(slot.retryAfterMs)

  const storageKey = `avatars/${randomBytes(16).toString('hex')}.${EXTENSIONS[type]}`
  const file = path.join(uploadDir, storageKey)
  try {
    await mkdir(path.dirname(file), { recursive: true })
    await writeFile(file, input.bytes, { flag: 'wx', mode: 0o644 })
  } catch (error) {
    // A write cut short (a full disk) leaves the start of the file, public under /uploads. ('wx'
    // refused a name that exists: that file is someone else's.)
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') {
      await unlink(file).catch(() => undefined)
    }
    await release(db, slot)
    throw asStorageFull(error, `uploads ${path.resolve(uploadDir)}`)
  }
  try {
    await db
      .insertInto('files')
      .values({
        id: randomUUID(),
        user_id: input.userId,
        kind: 'avatar',
        storage_key: storageKey,
        mime_type: type,
        size_bytes: input.bytes.length,
        created_at: now.toISOString(),
      })
      .execute()
  } catch (error) {
    await unlink(file).catch(() => undefined)
    await release(db, slot)
    throw error
  }
  return { url: `${UPLOADS_URL_PREFIX}${storageKey}` }
}

/** Whether `url` is an avatar this user uploaded (the only avatars a profile may point at). */
export async function isOwnAvatar(db: DB, userId: string, url: string): Promise<boolean> {
  if (!url.startsWith(UPLOADS_URL_PREFIX)) return false
  const row = await db
    .selectFrom('files')
    .select('id')
    .where('storage_key', '=', url.slice(UPLOADS_URL_PREFIX.length))
    .where('user_id', '=', userId)
    .where('kind', '=', 'avatar')
    .executeTakeFirst()
  return row !== undefined
}

/** Removes stored files (after their rows are gone); a file already missing is not an error. */
export async function removeStoredFiles(uploadDir: string, storageKeys: string[]): Promise<void> {
  await Promise.all(
    storageKeys.map((key) =>
      unlink(path.join(uploadDir, key)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error
      }),
    ),
  )
}
