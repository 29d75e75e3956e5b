import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import { maskName, maskMobile } from '../identity'

/*
 * How a person is named to someone else (a sharer on a shared record, a grantee in 谁看过): masked,
 * never the whole name or number.
 */

export interface PersonLabel {
  nameMasked: string | null
  mobileMasked: string | null
  role: 'patient' | 'expert'
}

/** Masked names of people: the bound card's name (张*), else the nickname masked. */
export async function personLabels(
  db: DB,
  cipher: FieldCipher,
  userIds: readonly string[],
): Promise<Map<string, PersonLabel>> {
  const ids = [...new Set(userIds)]
  const labels = new Map<string, PersonLabel>()
  if (ids.length === 0) return labels
  const rows = await db
    .selectFrom('users')
    .leftJoin('id_cards', 'id_cards.user_id', 'users.id')
    .select([
      'users.id',
      'users.nickname',
      'users.mobile',
      'users.role',
      'id_cards.holder_encrypted',
    ])
    .where('users.id', 'in', ids)
    .execute()
  for (const row of rows) {
    let name: string | null = null
    if (row.holder_encrypted) {
      try {
        name = maskName(cipher.decrypt(row.holder_encrypted))
      } catch {
        name = null
      }
    }
    if (!name && row.nickname.trim()) name = maskName(row.nickname.trim())
    labels.set(row.id, {
      nameMasked: name,
      mobileMasked: row.mobile ? maskMobile(row.mobile) : null,
      role: row.role === 'expert' ? 'expert' : 'patient',
    })
  }
  return labels
}

/** 张** as a sharer is shown (never empty). */
export function sharerText(label: PersonLabel | undefined): string {
  return label?.nameMasked ?? label?.mobileMasked ?? '患者'
}
