import {
  CONSULT_SERVICES,
  type ConsultService,
  DAILY_LIMIT_DEFAULT,
  EXPERT_PROFILE_MESSAGES,
  EXPERT_SERVICE_RULES,
  type MyExpertSettings,
} from '@contract/main/expert-profiles'
import type { DB } from '../../db'
import { badRequest, forbidden } from '../../http/errors'
import { CARD_COLUMNS, certifiedExperts, SERVICE_COLUMNS, toProfile } from './profiles'

/*
 * The expert's own settings (我的主页, 服务设置; contract getMyExpertSettings and the two updates).
 * Everything here takes effect at once: the introduction and specialities (the hospital, department
 * and title change only through a new application and its review), prices, the service switches,
 * 接诊中 / 暂停接诊 and the daily limit. A suspended expert may still change them; the platform's
 * suspension is not theirs to lift, and the settings say why they are hidden.
 */

/** What a newly certified expert starts with: every service on at the platform's default price. */
export const NEW_EXPERT_SETTINGS = {
  accepting: 1,
  daily_limit: DAILY_LIMIT_DEFAULT,
  text_enabled: 1,
  text_price_fen: EXPERT_SERVICE_RULES.text.defaultFen,
  imaging_enabled: 1,
  imaging_price_fen: EXPERT_SERVICE_RULES.imaging.defaultFen,
} as const

async function ownRow(db: DB, userId: string) {
  const row = await certifiedExperts(db)
    .select(CARD_COLUMNS)
    .select(['experts.daily_limit', 'experts.followup_limit'])
    .where('experts.user_id', '=', userId)
    .executeTakeFirst()
  // The role says expert but no application was ever approved (an account given the role by hand,
  // or the demo expert before certification): the settings have nothing to show.
  if (!row) throw forbidden(EXPERT_PROFILE_MESSAGES.notCertified)
  return row
}

export async function getMyExpertSettings(db: DB, userId: string): Promise<MyExpertSettings> {
  const row = await ownRow(db, userId)
  const [profile, open] = await Promise.all([
    toProfile(db, row, userId),
    db
      .selectFrom('expert_applications')
      .select(['id', 'status'])
      .where('user_id', '=', userId)
      .where('status', 'in', ['draft', 'pending'])
      .executeTakeFirst(),
  ])
  return {
    profile,
    dailyLimit: Number(row.daily_limit),
    followupLimit: Number(row.followup_limit),
    suspension:
      row.suspended_at !== null
        ? { reason: row.suspended_reason ?? '', at: row.suspended_at }
        : null,
    pendingChange: open ? { applicationId: open.id, status: open.status } : null,
  }
}

export async function updateMyExpertProfile(
  db: DB,
  userId: string,
  input: { introduction: string; specialities: string[] },
  now: Date,
): Promise<MyExpertSettings> {
  await ownRow(db, userId)
  await db
    .updateTable('experts')
    .set({
      introduction: input.introduction,
      // A tag chosen twice is one tag (as the application's draft keeps them).
      specialities: JSON.stringify([...new Set(input.specialities)]),
      updated_at: now.toISOString(),
    })
    .where('user_id', '=', userId)
    .execute()
  return getMyExpertSettings(db, userId)
}

export interface ServicesInput {
  accepting: boolean
  dailyLimit: number
  followupLimit?: number | undefined
  services: { kind: ConsultService; enabled: boolean; priceFen: number }[]
}

export async function updateMyExpertServices(
  db: DB,
  userId: string,
  input: ServicesInput,
  now: Date,
): Promise<MyExpertSettings> {
  const current = await ownRow(db, userId)
  const byKind = new Map<ConsultService, ServicesInput['services'][number]>()
  for (const service of input.services) {
    if (byKind.has(service.kind)) throw badRequest(EXPERT_PROFILE_MESSAGES.servicesDuplicate)
    byKind.set(service.kind, service)
  }
  const changes: Record<string, number | string> = {
    accepting: input.accepting ? 1 : 0,
    daily_limit: input.dailyLimit,
    ...(input.followupLimit === undefined ? {} : { followup_limit: input.followupLimit }),
    updated_at: now.toISOString(),
  }
  for (const kind of CONSULT_SERVICES) {
    const service = byKind.get(kind)
    if (!service) throw badRequest(EXPERT_PROFILE_MESSAGES.servicesMissing)
    const rule = EXPERT_SERVICE_RULES[kind]
    const inBounds = service.priceFen >= rule.minFen && service.priceFen <= rule.maxFen
    const columns = SERVICE_COLUMNS[kind]
    changes[columns.enabled] = service.enabled ? 1 : 0
    if (service.enabled && !inBounds) throw badRequest(EXPERT_PROFILE_MESSAGES.priceRange(kind))
    // Turning a service off never fails on its price: the bounds may have moved since it was set,
    // and a price nobody can pay needs no check. An out-of-bounds price is then left as it was.
    changes[columns.price] = inBounds ? service.priceFen : Number(current[columns.price])
  }
  await db.updateTable('experts').set(changes).where('user_id', '=', userId).execute()
  return getMyExpertSettings(db, userId)
}
