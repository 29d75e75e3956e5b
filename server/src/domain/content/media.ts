import type { DB } from '../../db'
import type { ContentFilesTable } from '../../db/schema'
import type { ObjectStore } from '../../storage/object-store'

/** Kinds served publicly at /media: what articles, videos and the apps page show to anyone. */
export const PUBLIC_MEDIA_KINDS = ['cover', 'poster', 'video', 'icon'] as const

export interface PublicMedia {
  id: string
  storageKey: string
  mimeType: string
  sizeBytes: number
}

/**
 * A public file by id, or undefined. Only files something published named (attached_at set) are
 * served: an operator's upload that no article uses yet is not public, and a feedback image never.
 */
export async function openMedia(db: DB, fileId: string): Promise<PublicMedia | undefined> {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(fileId)) return undefined
  const row = await db
    .selectFrom('content_files')
    .select(['id', 'storage_key', 'mime_type', 'size_bytes'])
    .where('id', '=', fileId)
    .where('kind', 'in', PUBLIC_MEDIA_KINDS)
    .where('attached_at', 'is not', null)
    .executeTakeFirst()
  return row
    ? {
        id: row.id,
        storageKey: row.storage_key,
        mimeType: row.mime_type,
        sizeBytes: Number(row.size_bytes),
      }
    : undefined
}

/**
 * Files of these kinds uploaded before `uploadedBefore` that nothing named: rows and bytes go (run by
 * the retention purge, whose schedule says how long an upload may wait: domain/retention). A file
 * claimed between the select and the delete stays (the delete re-checks `attached_at`).
 */
export async function removeUnattachedFiles(
  db: DB,
  store: ObjectStore,
  kinds: readonly ContentFilesTable['kind'][],
  uploadedBefore: Date,
): Promise<number> {
  const stale = await db
    .selectFrom('content_files')
    .select(['id', 'storage_key'])
    .where('kind', 'in', kinds)
    .where('attached_at', 'is', null)
    .where('created_at', '<', uploadedBefore.toISOString())
    .execute()
  let removed = 0
  for (const file of stale) {
    const gone = await db
      .deleteFrom('content_files')
      .where('id', '=', file.id)
      .where('attached_at', 'is', null)
      .executeTakeFirst()
    if (Number(gone.numDeletedRows) === 0) continue
    await store.delete(file.storage_key)
    removed += 1
  }
  return removed
}
