import { randomUUID } from 'node:crypto'
import {
  AUDIT_KIND_LABELS,
  AUDIT_KINDS,
  type AuditEvent,
  type AuditKind,
} from '@contract/main/security'
import type { DB } from '../db'
import { type Page, page, type PageQuery } from '../db/paging'
import { type ClientInfo, summariseClient } from './client-info'

export interface AuditInput {
  /** The account concerned; events about no known account are not recorded. */
  userId: string
  kind: AuditKind
  client: ClientInfo
  now: Date
  /** A short, non-personal note (the login method); never a phone, number, token or password. */
  detail?: string
  /**
   * Skip the event when the account already has one of this kind this recent: a stranger hammering
   * a locked phone must not bury the owner's record under identical lines.
   */
  unlessWithinMs?: number
}

/**
 * Records a security event. Only the masked address, a rough place and a browser/system summary are
 * kept with it, so the log helps a person spot a stranger's login without becoming a tracking record.
 */
export async function recordAudit(db: DB, input: AuditInput): Promise<void> {
  if (input.unlessWithinMs) {
    const since = new Date(input.now.getTime() - input.unlessWithinMs).toISOString()
    const recent = await db
      .selectFrom('audit_events')
      .select('id')
      .where('user_id', '=', input.userId)
      .where('kind', '=', input.kind)
      .where('created_at', '>', since)
      .executeTakeFirst()
    if (recent) return
  }
  const summary = summariseClient(input.client)
  await db
    .insertInto('audit_events')
    .values({
      id: randomUUID(),
      user_id: input.userId,
      kind: input.kind,
      created_at: input.now.toISOString(),
      ip_masked: summary.ipMasked,
      client: summary.client,
      location: summary.location,
      detail: input.detail ?? null,
    })
    .execute()
}

export type AuditPage = Page<AuditEvent>

export const AUDIT_PAGE_SIZE = 10

/** The caller's own events, newest first. */
export async function listAuditEvents(
  db: DB,
  userId: string,
  paging: PageQuery,
): Promise<AuditPage> {
  const base = db
    .selectFrom('audit_events')
    .where('user_id', '=', userId)
    // Kinds a newer server wrote and this one does not know are left out, not mislabelled.
    .where('kind', 'in', AUDIT_KINDS)
  const found = await page(
    paging,
    // The id breaks ties between events of the same millisecond, so pages never overlap.
    base.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
    base,
    { size: AUDIT_PAGE_SIZE },
  )
  return {
    ...found,
    items: found.items.map((row) => {
      const kind = row.kind as AuditKind
      return {
        id: row.id,
        kind,
        label: AUDIT_KIND_LABELS[kind],
        createdAt: row.created_at,
        ipMasked: row.ip_masked,
        location: row.location,
        client: row.client,
        detail: row.detail,
      }
    }),
  }
}
