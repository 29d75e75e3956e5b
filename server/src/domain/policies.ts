import type { AgreementKind } from '@contract/main/app'
import type { DB } from '../db'
import { DEFAULT_SOFTWARE_NAME, POLICY_TEXTS, type PolicyText } from './policy-texts'

export interface PolicyDocument {
  kind: AgreementKind
  softwareName: string
  version: string
  title: string
  content: string
  updatedAt: string
}

/**
 * The current text of a policy for a softwareName: the newest version written for that softwareName,
 * otherwise the newest default version. Unknown softwareNames therefore get the default policy rather
 * than an error, so a new build of the app never launches into a dead end; undefined only when no
 * policy of that kind exists at all.
 */
export async function findCurrentPolicy(
  db: DB,
  kind: AgreementKind,
  softwareName: string = DEFAULT_SOFTWARE_NAME,
): Promise<PolicyDocument | undefined> {
  const own =
    softwareName === DEFAULT_SOFTWARE_NAME ? undefined : await newest(db, kind, softwareName)
  return own ?? (await newest(db, kind, DEFAULT_SOFTWARE_NAME))
}

async function newest(db: DB, kind: AgreementKind, softwareName: string) {
  const row = await db
    .selectFrom('policy_documents')
    .selectAll()
    .where('kind', '=', kind)
    .where('software_name', '=', softwareName)
    .orderBy('updated_at', 'desc')
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst()
  if (!row) return undefined
  return {
    kind: row.kind,
    softwareName: row.software_name,
    version: row.version,
    title: row.title,
    content: row.content,
    updatedAt: row.updated_at,
  }
}

/**
 * Writes every published policy version that the database does not have yet. Runs at every start in
 * every mode (policies are product content, not demo data); existing versions are left untouched.
 * Returns how many versions it inserted.
 */
export async function ensurePolicies(
  db: DB,
  texts: readonly PolicyText[] = POLICY_TEXTS,
): Promise<number> {
  let inserted = 0
  for (const text of texts) {
    const result = await db
      .insertInto('policy_documents')
      .values({
        kind: text.kind,
        software_name: text.softwareName,
        version: text.version,
        title: text.title,
        content: text.content,
        updated_at: text.updatedAt,
      })
      .onConflict((oc) => oc.columns(['kind', 'software_name', 'version']).doNothing())
      .executeTakeFirst()
    inserted += Number(result.numInsertedOrUpdatedRows ?? 0n)
  }
  return inserted
}
