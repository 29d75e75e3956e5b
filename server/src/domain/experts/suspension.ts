import { z } from 'zod/mini'
import {
  type ConsultService,
  EXPERT_PROFILE_MESSAGES,
  type ExpertService,
  OperatorExpertSchema,
} from '@contract/main/expert-profiles'
import type { DB } from '../../db'
import type { SubscribeNotice } from '../../providers/subscribe-message'
import { chinaTime } from '../security-notices'
import { type Page, page, type PageQuery } from '../../db/paging'
import { conflict, notFound } from '../../http/errors'
import { createMessage } from '../messages'
import { OPERATOR_PAGE_SIZE, recordOperatorAction } from '../operator'
import { filtered } from './directory'
import {
  CARD_COLUMNS,
  type CardRow,
  certifiedExperts,
  publicExperts,
  toExpertCard,
  toServices,
} from './profiles'

/*
 * 停诊 by the platform (README.md). Suspending or resuming is ONE conditional UPDATE on
 * `suspended_at` (is null / is not null): of two operators at once the database lets exactly one
 * change the row, and the other is answered 409 with what happened. The operators' audit line and
 * the expert's 我的消息 entry are written in the same transaction. From the next request the
 * expert is out of publicExperts (the directory, 搜索, 收藏, the profile) and
 * assertExpertTakesConsultations refuses new consultations.
 */

type OperatorExpert = z.infer<typeof OperatorExpertSchema>

function toOperatorExpert(row: CardRow): OperatorExpert {
  return {
    ...toExpertCard(row),
    certifiedAt: row.certified_at,
    suspension:
      row.suspended_at !== null
        ? { reason: row.suspended_reason ?? '', at: row.suspended_at }
        : null,
  }
}

export async function operatorListExperts(
  db: DB,
  filter: { keyword?: string | undefined; suspended?: 'yes' | 'no' | undefined },
  query: PageQuery,
): Promise<Page<OperatorExpert>> {
  let matching = filtered(db, certifiedExperts(db), { keyword: filter.keyword })
  if (filter.suspended === 'yes') matching = matching.where('experts.suspended_at', 'is not', null)
  if (filter.suspended === 'no') matching = matching.where('experts.suspended_at', 'is', null)
  const found = await page(
    query,
    matching
      .select(CARD_COLUMNS)
      .orderBy('experts.certified_at', 'desc')
      .orderBy('experts.user_id'),
    matching,
    { size: OPERATOR_PAGE_SIZE },
  )
  return { ...found, items: found.items.map(toOperatorExpert) }
}

async function operatorView(db: DB, expertId: string): Promise<OperatorExpert> {
  const row = await certifiedExperts(db)
    .select(CARD_COLUMNS)
    .where('experts.user_id', '=', expertId)
    .executeTakeFirst()
  if (!row) throw notFound(EXPERT_PROFILE_MESSAGES.notFound)
  return toOperatorExpert(row)
}

export async function setSuspension(
  db: DB,
  operatorId: string,
  expertId: string,
  change: { suspend: true; reason: string } | { suspend: false },
  now: Date,
): Promise<{ expert: OperatorExpert; notices: SubscribeNotice[] }> {
  const at = now.toISOString()
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('experts')
      .set(
        change.suspend
          ? {
              suspended_at: at,
              suspended_reason: change.reason,
              suspended_by: operatorId,
              updated_at: at,
            }
          : { suspended_at: null, suspended_reason: null, suspended_by: null, updated_at: at },
      )
      .where('user_id', '=', expertId)
      .where('suspended_at', change.suspend ? 'is' : 'is not', null)
      .where('user_id', 'in', trx.selectFrom('users').select('id').where('deleted_at', 'is', null))
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) {
      // The loser of a race (or a repeated tap): say what the expert's state already is.
      const exists = await certifiedExperts(trx)
        .select('experts.user_id')
        .where('experts.user_id', '=', expertId)
        .executeTakeFirst()
      if (!exists) throw notFound(EXPERT_PROFILE_MESSAGES.notFound)
      throw conflict(
        change.suspend
          ? EXPERT_PROFILE_MESSAGES.alreadySuspended
          : EXPERT_PROFILE_MESSAGES.notSuspended,
      )
    }
    await createMessage(
      trx,
      {
        userId: expertId,
        kind: 'system',
        title: change.suspend ? '专家服务已暂停' : '专家服务已恢复',
        body: change.suspend
          ? EXPERT_PROFILE_MESSAGES.suspended(change.reason)
          : '平台已恢复您的专家服务，患者现在可以在找专家中看到您的主页。',
        link: { route: 'personalDetail', params: { id: expertId } },
      },
      now,
    )
    await recordOperatorAction(
      trx,
      {
        operatorId,
        action: change.suspend ? 'expert-suspend' : 'expert-resume',
        targetId: expertId,
        detail: change.suspend ? `暂停：${change.reason}` : '恢复',
      },
      now,
    )
  })
  // Sent by the route after the commit: a suspension that rolled back tells nobody anything.
  const notice: SubscribeNotice = {
    userId: expertId,
    template: 'expert-service',
    data: {
      state: change.suspend ? '已暂停' : '已恢复',
      // The template's field is short; the whole reason is in 我的消息 and 服务设置.
      remark: change.suspend ? change.reason.slice(0, 20) : '患者可以在找专家中看到您的主页',
      time: chinaTime(now),
    },
  }
  return { expert: await operatorView(db, expertId), notices: [notice] }
}

/**
 * For the consultation issue: may this expert be asked a new consultation (of `service`)? Refuses
 * an id that is not a public expert (never certified, account deleted, or suspended by the
 * platform: all 404, so a patient learns nothing of a suspension), an expert who turned 接诊 off
 * and a service they do not offer (409: the expert exists, the request cannot be taken now).
 * Answers what the consultation needs to price itself. The daily limit is the caller's to count.
 */
export async function assertExpertTakesConsultations(
  db: DB,
  expertId: string,
  service?: ConsultService,
): Promise<{ services: ExpertService[]; dailyLimit: number }> {
  const row = await publicExperts(db)
    .select(CARD_COLUMNS)
    .select('experts.daily_limit')
    .where('experts.user_id', '=', expertId)
    .executeTakeFirst()
  if (!row) throw notFound(EXPERT_PROFILE_MESSAGES.notFound)
  if (Number(row.accepting) !== 1) throw conflict(EXPERT_PROFILE_MESSAGES.notAccepting)
  const services = toServices(row)
  if (service && !services.find((one) => one.kind === service)?.enabled) {
    throw conflict(EXPERT_PROFILE_MESSAGES.serviceOff(service))
  }
  return { services, dailyLimit: Number(row.daily_limit) }
}
