import { sql } from 'kysely'
import type { KeptAfterDeletion } from '@contract/main/retention'
import type { DB } from '../../db'
import { retentionEnd } from './schedule'

/*
 * What deleting this account would leave, and until when: the schedule applied to the person's own
 * records, for the deletion page to say before they confirm (PIPL art. 47: what the law keeps is
 * kept, and the person is told). Everything else goes at deletion (profile/account.ts eraseAccount).
 */

type Role = 'patient' | 'expert'
const ROLE_COLUMN = { patient: 'patient_user_id', expert: 'expert_user_id' } as const

const latest = (values: (string | null | undefined)[]): string | null =>
  values.reduce<string | null>((max, v) => (v && (!max || v > max) ? v : max), null)

async function consultationItems(db: DB, userId: string, role: Role): Promise<KeptAfterDeletion[]> {
  const column = ROLE_COLUMN[role]
  const mine = db.selectFrom('consultations').select('id').where(column, '=', userId)
  const [conversations, signed, requests, applications, paid] = await Promise.all([
    // Ended consultations with anything said or shown in them: an order closed unpaid has no talk.
    db
      .selectFrom('consultations as c')
      .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(c.ended_at)`.as('last')])
      .where(`c.${column}`, '=', userId)
      .where('c.ended_at', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.exists(
            eb
              .selectFrom('consultation_messages as m')
              .select('m.id')
              .whereRef('m.consultation_id', '=', 'c.id')
              .where('m.signed_at', 'is', null),
          ),
          eb.exists(
            eb
              .selectFrom('consultation_pictures as p')
              .select('p.id')
              .whereRef('p.consultation_id', '=', 'c.id'),
          ),
        ]),
      )
      .executeTakeFirstOrThrow(),
    // Signed answers and addenda (a written opinion is signed as its answer message).
    db
      .selectFrom('consultation_messages')
      .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(signed_at)`.as('last')])
      .where('consultation_id', 'in', mine)
      .where('signed_at', 'is not', null)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('exam_requests')
      .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(created_at)`.as('last')])
      .where('consultation_id', 'in', mine)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('consultations')
      .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(ended_at)`.as('last')])
      .where(column, '=', userId)
      .where('ended_at', 'is not', null)
      .where('chief_complaint', '<>', '')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('consultations')
      .select(sql<number>`count(*)`.as('n'))
      .where(column, '=', userId)
      .where('paid_at', 'is not', null)
      .executeTakeFirstOrThrow(),
  ])
  const items: KeptAfterDeletion[] = []
  const push = (
    rule: KeptAfterDeletion['rule'],
    count: number,
    last: string | null,
    itemRole: Role | null = role,
  ) => {
    if (count > 0) {
      items.push({ rule, role: itemRole, count, until: last ? retentionEnd(rule, last) : null })
    }
  }
  push('consultation-conversations', Number(conversations.n), conversations.last)
  push(
    'signed-opinions',
    Number(signed.n) + Number(requests.n),
    latest([signed.last, requests.last]),
  )
  // The application is the asker's own words; an expert's deletion leaves the patient's alone.
  if (role === 'patient') {
    push('consultation-applications', Number(applications.n), applications.last)
  }
  push('ledger', Number(paid.n), null)
  return items
}

export async function keptAfterDeletion(
  db: DB,
  userId: string,
  now: Date,
): Promise<KeptAfterDeletion[]> {
  const [asPatient, asExpert, payees] = await Promise.all([
    consultationItems(db, userId, 'patient'),
    consultationItems(db, userId, 'expert'),
    db
      .selectFrom('withdrawals')
      .select([sql<number>`count(*)`.as('n'), sql<string | null>`max(finished_at)`.as('last')])
      .where('expert_user_id', '=', userId)
      .where('payee_id_number_encrypted', 'is not', null)
      .executeTakeFirstOrThrow(),
  ])
  const items: KeptAfterDeletion[] = [
    // The deletion is itself a security event, recorded now: the last one to go.
    {
      rule: 'security-events',
      role: null,
      count: 0,
      until: retentionEnd('security-events', now.toISOString()),
    },
    ...asPatient,
    ...asExpert,
  ]
  if (Number(payees.n) > 0) {
    items.push({
      rule: 'withdrawal-payees',
      role: null,
      count: Number(payees.n),
      // A withdrawal still in flight blocks deletion; once it ends its ten years start.
      until: retentionEnd('withdrawal-payees', payees.last ?? now.toISOString()),
    })
  }
  items.push({ rule: 'deleted-accounts', role: null, count: 0, until: null })
  return items
}
