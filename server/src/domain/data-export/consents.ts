import { CONSENT_PURPOSES, CONSENT_RULES, type ConsentPurpose } from '@contract/main/consents'
import type { DB } from '../../db'

/*
 * The person's consents as the archive lists them: every row of the consent ledger (domain/consents,
 * migration 0031) they gave or that was given for them, oldest first, with what it was called then.
 * The one place this folder reads the `consents` table.
 */

export interface ConsentEntry {
  purpose: string
  purposeLabel: string
  action: string
  version: string
  targetId: string | null
  /** What was named: 向 王专家 共享 胸部 CT. */
  detail: string | null
  /** Where: the page and the button. */
  channel: string | null
  /** Given by someone else for this person (a family manager). */
  givenByOther: boolean
  createdAt: string
}

const labelOf = (kind: string) =>
  (CONSENT_PURPOSES as readonly string[]).includes(kind)
    ? CONSENT_RULES[kind as ConsentPurpose].label
    : kind

export async function consentHistory(db: DB, userId: string): Promise<ConsentEntry[]> {
  const rows = await db
    .selectFrom('consents')
    .selectAll()
    .where((eb) => eb.or([eb('user_id', '=', userId), eb('subject_user_id', '=', userId)]))
    .orderBy('created_at')
    .orderBy('seq')
    .execute()
  return rows.map((row) => ({
    purpose: row.kind,
    purposeLabel: labelOf(row.kind),
    action: row.action,
    version: row.version,
    targetId: row.target_id,
    detail: row.detail,
    channel: row.channel,
    givenByOther: row.user_id !== userId,
    createdAt: row.created_at,
  }))
}
