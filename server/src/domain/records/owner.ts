import { FAMILY_RELATION_LABELS, type FamilyRelation } from '@contract/main/family'
import type { RecordOwner } from '@contract/main/records'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExamsTable } from '../../db/schema'
import { notFound } from '../../http/errors'
import {
  boundIdentity,
  EXAM_NOT_FOUND,
  findFamilyExam,
  type ReachedExam,
  type RecordsCaller,
  visibleTo,
} from './access'
import { personLabels, sharerText } from './people'

/**
 * Whose record this is, as the caller may be told (issue 9: every record shows whose it is). The
 * exam has already passed access.ts; this only names the person:
 * - the caller's own → 本人;
 * - a member the caller manages → the link's relation and the member's masked name (女儿 张*);
 * - through a grant (a link visitor or a grantee) → the sharer's masked name (张** 分享).
 * Never an unmasked name.
 */
export async function recordOwner(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  exam: ExamsTable,
): Promise<RecordOwner> {
  if (caller.kind === 'share') {
    const grant = await db
      .selectFrom('grants')
      .select('person_user_id')
      .where('id', '=', caller.grantId)
      .executeTakeFirstOrThrow()
    const labels = await personLabels(db, cipher, [grant.person_user_id])
    return {
      personId: grant.person_user_id,
      relation: 'grant',
      label: `${sharerText(labels.get(grant.person_user_id))} 分享`,
    }
  }
  if (caller.kind !== 'user') {
    // A hospital key reads through DICOMweb/FHIR, which carry no owner; said for completeness.
    return { personId: exam.owner_user_id ?? '', relation: 'grant', label: '医院' }
  }
  const identity = await boundIdentity(db, cipher, caller.userId)
  const own = await db
    .selectFrom('exams')
    .select('exams.id')
    .where('exams.id', '=', exam.id)
    .where(visibleTo(caller, identity))
    .executeTakeFirst()
  if (own) return ownRecord(caller.userId)
  const family = await findFamilyExam(db, cipher, caller.userId, exam.id)
  // access.ts let the caller in a moment ago: the family link ended in between, so it is gone now.
  if (!family) throw notFound(EXAM_NOT_FOUND)
  return memberRecord(db, cipher, caller.userId, family.personId)
}

/**
 * recordOwner for an exam access.ts's reachExam found: it already knows whether a signed-in
 * person's exam is their own, so their own costs no query.
 */
export async function reachedOwner(
  db: DB,
  cipher: FieldCipher,
  caller: RecordsCaller,
  reached: ReachedExam,
): Promise<RecordOwner> {
  if (caller.kind !== 'user') return recordOwner(db, cipher, caller, reached.exam)
  return reached.memberId === undefined
    ? ownRecord(caller.userId)
    : memberRecord(db, cipher, caller.userId, reached.memberId)
}

function ownRecord(userId: string): RecordOwner {
  return { personId: userId, relation: 'self', label: '本人' }
}

/** A managed member's record: the link's relation and the member's masked name (女儿 张*). */
async function memberRecord(
  db: DB,
  cipher: FieldCipher,
  userId: string,
  memberId: string,
): Promise<RecordOwner> {
  const [link, labels] = await Promise.all([
    db
      .selectFrom('family_links')
      .select('relation')
      .where('manager_user_id', '=', userId)
      .where('member_user_id', '=', memberId)
      .where('ended_at', 'is', null)
      .executeTakeFirst(),
    personLabels(db, cipher, [memberId]),
  ])
  const relation = link
    ? (FAMILY_RELATION_LABELS[link.relation as FamilyRelation] ?? link.relation)
    : '家人'
  const name = labels.get(memberId)?.nameMasked
  return {
    personId: memberId,
    relation: 'family',
    label: name ? `${relation} ${name}` : relation,
  }
}
