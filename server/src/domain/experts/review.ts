import { z } from 'zod/mini'
import {
  EXPERT_APPLICATION_STATUS_LABELS,
  EXPERT_MESSAGES,
  type ExpertApplicationStatus,
  OperatorExpertApplicationSchema,
} from '@contract/main/experts'
import { HOSPITAL_REQUEST_MESSAGES } from '@contract/main/hospital-requests'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'
import type { ExpertApplicationsTable } from '../../db/schema'
import { conflict, notFound } from '../../http/errors'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { maskMobile } from '../identity'
import { createMessage } from '../messages'
import { OPERATOR_PAGE_SIZE, recordOperatorAction } from '../operator'
import { chinaTime } from '../security-notices'
import { toApplication } from './applications'
import { NEW_EXPERT_SETTINGS } from './settings'

/*
 * The operators' review (README.md). A decision is ONE conditional UPDATE `where status = 'pending'`:
 * of two operators deciding at once, the database lets exactly one change the row; the other's
 * update finds no pending row and is answered 409. The audit line, the applicant's message and (on
 * approval) the certified profile and the role are written in the same transaction as the decision,
 * so a decision never exists without them, nor they without it. The subscribe message goes out
 * after the commit (the route sends the notices decide answers): a decision that rolled back must
 * not have rung the applicant's phone.
 */

type OperatorExpertApplication = z.infer<typeof OperatorExpertApplicationSchema>

async function toOperatorView(
  db: DB,
  cipher: FieldCipher,
  row: ExpertApplicationsTable,
): Promise<OperatorExpertApplication> {
  const base = await toApplication(db, cipher, row)
  const card = await db
    .selectFrom('id_cards')
    .select('holder_encrypted')
    .where('user_id', '=', row.user_id)
    .executeTakeFirst()
  const user = await db
    .selectFrom('users')
    .select('mobile')
    .where('id', '=', row.user_id)
    .executeTakeFirst()
  return {
    ...base,
    userId: row.user_id,
    certifiedName: card ? cipher.decrypt(card.holder_encrypted) : null,
    mobileMasked: user?.mobile ? maskMobile(user.mobile) : null,
  }
}

/** The queue: by default the pending applications, oldest submission first (first come, first checked). */
export async function listApplications(
  db: DB,
  cipher: FieldCipher,
  filter: { status?: ExpertApplicationStatus },
  query: PageQuery,
) {
  const status = filter.status ?? 'pending'
  const base = db.selectFrom('expert_applications').where('status', '=', status)
  const found = await page(
    query,
    base
      .selectAll()
      .orderBy('submitted_at', 'asc')
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc'),
    base,
    { size: OPERATOR_PAGE_SIZE },
  )
  const items: OperatorExpertApplication[] = []
  for (const row of found.items) items.push(await toOperatorView(db, cipher, row))
  return { ...found, items }
}

export async function getApplication(
  db: DB,
  cipher: FieldCipher,
  applicationId: string,
): Promise<OperatorExpertApplication> {
  const row = await db
    .selectFrom('expert_applications')
    .selectAll()
    .where('id', '=', applicationId)
    .executeTakeFirst()
  if (!row) throw notFound(EXPERT_MESSAGES.notFound)
  return toOperatorView(db, cipher, row)
}

export type Decision = { approve: true } | { approve: false; reason: string }

/** The subscribe message of a decision (sent by the route after the commit, like grants' notices). */
function decisionNotice(userId: string, decision: Decision, now: Date): SubscribeNotice {
  return {
    userId,
    template: 'expert-decision',
    data: {
      result: decision.approve ? '已通过' : '未通过',
      // The reason is the applicant's own matter; the template's field is short.
      remark: decision.approve
        ? '患者现在可以在找专家中看到您的主页'
        : decision.reason.slice(0, 20),
      time: chinaTime(now),
    },
  }
}

export async function decide(
  db: DB,
  cipher: FieldCipher,
  operatorId: string,
  applicationId: string,
  decision: Decision,
  now: Date,
): Promise<{ application: OperatorExpertApplication; notices: SubscribeNotice[] }> {
  const at = now.toISOString()
  const applicantId = await db.transaction().execute(async (trx) => {
    if (decision.approve) {
      // A hospital that is still only a request cannot be certified: settle the request first.
      const waiting = await trx
        .selectFrom('expert_applications')
        .select('id')
        .where('id', '=', applicationId)
        .where('status', '=', 'pending')
        .where('hospital_id', 'is', null)
        .executeTakeFirst()
      if (waiting) throw conflict(HOSPITAL_REQUEST_MESSAGES.approveWaits)
    }
    const result = await trx
      .updateTable('expert_applications')
      .set((eb) => ({
        status: decision.approve ? 'approved' : 'rejected',
        reject_reason: decision.approve ? null : decision.reason,
        decided_at: at,
        decided_by: operatorId,
        updated_at: at,
        version: eb('version', '+', 1),
      }))
      .where('id', '=', applicationId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) {
      const exists = await trx
        .selectFrom('expert_applications')
        .select('id')
        .where('id', '=', applicationId)
        .executeTakeFirst()
      throw exists ? conflict(EXPERT_MESSAGES.alreadyDecided) : notFound(EXPERT_MESSAGES.notFound)
    }
    const row = await trx
      .selectFrom('expert_applications')
      .selectAll()
      .where('id', '=', applicationId)
      .executeTakeFirstOrThrow()

    if (decision.approve) {
      // The certified name is the bound card's holder (submission required a card, and a card is
      // never rebound); copied because it is public, and searched, while the card stays encrypted.
      const card = await trx
        .selectFrom('id_cards')
        .select('holder_encrypted')
        .where('user_id', '=', row.user_id)
        .executeTakeFirst()
      // Submission required every one of these fields; a row without them is not approvable.
      const profile = {
        name: card ? cipher.decrypt(card.holder_encrypted) : null,
        application_id: row.id,
        hospital_id: row.hospital_id!,
        department: row.department!,
        title: row.title!,
        specialities: row.specialities,
        introduction: row.introduction,
        updated_at: at,
      }
      await trx
        .insertInto('experts')
        .values({
          user_id: row.user_id,
          ...profile,
          ...NEW_EXPERT_SETTINGS,
          certified_at: at,
          suspended_at: null,
          suspended_reason: null,
          suspended_by: null,
          photo_path: null,
          demo: 0,
        })
        // A certified expert's new application replaces the certified values only now, on approval;
        // the introduction and specialities are theirs to change at once (settings), so an
        // approval of a change of hospital, department or title leaves them as they are now.
        .onConflict((oc) =>
          oc.column('user_id').doUpdateSet({
            name: profile.name,
            application_id: profile.application_id,
            hospital_id: profile.hospital_id,
            department: profile.department,
            title: profile.title,
            updated_at: profile.updated_at,
          }),
        )
        .execute()
      // An operator stays an operator (the role column holds one role; theirs is the wider one).
      await trx
        .updateTable('users')
        .set({ role: 'expert', updated_at: at })
        .where('id', '=', row.user_id)
        .where('role', '=', 'patient')
        .execute()
    }

    await createMessage(
      trx,
      {
        userId: row.user_id,
        kind: 'system',
        title: decision.approve ? '专家认证已通过' : '专家认证未通过',
        body: decision.approve
          ? '您的专家认证已通过审核，患者现在可以在找专家中看到您的主页。'
          : `您的专家认证申请已被驳回，原因：${decision.reason}\n请按原因修改后重新提交。`,
        link: { route: 'expertPerfect', params: {} },
      },
      now,
    )
    await recordOperatorAction(
      trx,
      {
        operatorId,
        action: decision.approve ? 'expert-approve' : 'expert-reject',
        targetId: row.id,
        detail: decision.approve
          ? EXPERT_APPLICATION_STATUS_LABELS.approved
          : `${EXPERT_APPLICATION_STATUS_LABELS.rejected}：${decision.reason}`,
      },
      now,
    )
    return row.user_id
  })
  return {
    application: await getApplication(db, cipher, applicationId),
    notices: [decisionNotice(applicantId, decision, now)],
  }
}
