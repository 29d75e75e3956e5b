import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { z } from 'zod/mini'
import {
  HOSPITAL_REQUEST_MESSAGES,
  HOSPITAL_REQUEST_STATUS_LABELS,
  HOSPITAL_REQUESTS_PENDING_MAX,
  type HospitalRequest,
  type HospitalRequestInput,
  type HospitalRequestStatus,
  OperatorHospitalRequestSchema,
} from '@contract/main/hospital-requests'
import type { DB } from '../../db'
import { page, type PageQuery } from '../../db/paging'
import type { HospitalRequestsTable } from '../../db/schema'
import { badRequest, conflict, notFound } from '../../http/errors'
import { maskMobile } from '../identity'
import { createMessage } from '../messages'
import { OPERATOR_PAGE_SIZE, recordOperatorAction } from '../operator'

/*
 * "My hospital is not listed" (contract/main/hospital-requests.ts, README.md). A request is settled
 * once, by one conditional UPDATE `where status = 'pending'`, like an application's decision: of two
 * operators at once one wins and the other is told. Resolving fills the hospital into the pending and
 * draft applications that wait for it, in the same transaction as the audit line and the message.
 */

type Row = HospitalRequestsTable
type OperatorHospitalRequest = z.infer<typeof OperatorHospitalRequestSchema>

async function hospitalName(db: DB, id: string | null): Promise<string | null> {
  if (!id) return null
  const row = await db
    .selectFrom('hospitals')
    .select('name')
    .where('id', '=', id)
    .executeTakeFirst()
  return row?.name ?? null
}

export async function toHospitalRequest(db: DB, row: Row): Promise<HospitalRequest> {
  return {
    id: row.id,
    name: row.name,
    province: row.province,
    city: row.city,
    address: row.address,
    status: row.status,
    statusLabel: HOSPITAL_REQUEST_STATUS_LABELS[row.status],
    hospitalId: row.hospital_id,
    hospitalName: await hospitalName(db, row.hospital_id),
    declineReason: row.decline_reason,
    createdAt: row.created_at,
    decidedAt: row.decided_at,
  }
}

export async function findRequest(db: DB, id: string): Promise<Row | undefined> {
  return db.selectFrom('hospital_requests').selectAll().where('id', '=', id).executeTakeFirst()
}

/**
 * A new request, at most HOSPITAL_REQUESTS_PENDING_MAX waiting per person. The count is read under
 * a lock on the person's own `users` row (an UPDATE that changes nothing: PostgreSQL locks the row
 * until commit, SQLite runs one writing transaction at a time), so a burst cannot all read the same
 * old count. Asking again for a name already waiting answers that request instead of a second one.
 */
export async function createRequest(
  db: DB,
  userId: string,
  input: HospitalRequestInput,
  now: Date,
): Promise<HospitalRequest> {
  const listed = await db
    .selectFrom('hospitals')
    .select('name')
    .where('name', '=', input.name)
    .executeTakeFirst()
  if (listed) throw badRequest(HOSPITAL_REQUEST_MESSAGES.alreadyListed(listed.name))
  const row = await db.transaction().execute(async (trx) => {
    await trx
      .updateTable('users')
      .set((eb) => ({ updated_at: eb.ref('updated_at') }))
      .where('id', '=', userId)
      .execute()
    const waiting = await trx
      .selectFrom('hospital_requests')
      .selectAll()
      .where('user_id', '=', userId)
      .where('status', '=', 'pending')
      .execute()
    const same = waiting.find((request) => request.name === input.name)
    if (same) return same
    if (waiting.length >= HOSPITAL_REQUESTS_PENDING_MAX) {
      throw badRequest(HOSPITAL_REQUEST_MESSAGES.tooMany)
    }
    const created: Row = {
      id: randomUUID(),
      user_id: userId,
      name: input.name,
      province: input.province,
      city: input.city,
      address: input.address ? input.address : null,
      status: 'pending',
      hospital_id: null,
      decline_reason: null,
      decided_by: null,
      decided_at: null,
      created_at: now.toISOString(),
    }
    await trx.insertInto('hospital_requests').values(created).execute()
    return created
  })
  return toHospitalRequest(db, row)
}

export async function listMyRequests(db: DB, userId: string): Promise<HospitalRequest[]> {
  const rows = await db
    .selectFrom('hospital_requests')
    .selectAll()
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(50)
    .execute()
  const requests: HospitalRequest[] = []
  for (const row of rows) requests.push(await toHospitalRequest(db, row))
  return requests
}

/** The person's own request, for an application naming it; a declined one cannot be chosen. */
export async function ownRequestForApplication(db: DB, userId: string, id: string): Promise<Row> {
  const row = await findRequest(db, id)
  // Another person's request is answered as a missing one.
  if (!row || row.user_id !== userId) throw badRequest(HOSPITAL_REQUEST_MESSAGES.notYours)
  if (row.status === 'declined') throw badRequest(HOSPITAL_REQUEST_MESSAGES.declined)
  return row
}

async function toOperatorView(db: DB, row: Row): Promise<OperatorHospitalRequest> {
  const user = await db
    .selectFrom('users')
    .select('mobile')
    .where('id', '=', row.user_id)
    .executeTakeFirst()
  const waiting = await db
    .selectFrom('expert_applications')
    .select(sql<number | string>`count(*)`.as('n'))
    .where('hospital_request_id', '=', row.id)
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow()
  return {
    ...(await toHospitalRequest(db, row)),
    mobileMasked: user?.mobile ? maskMobile(user.mobile) : null,
    waitingApplications: Number(waiting.n),
  }
}

export async function listRequests(
  db: DB,
  filter: { status?: HospitalRequestStatus },
  query: PageQuery,
) {
  const base = db.selectFrom('hospital_requests').where('status', '=', filter.status ?? 'pending')
  const found = await page(
    query,
    base.selectAll().orderBy('created_at', 'asc').orderBy('id', 'asc'),
    base,
    { size: OPERATOR_PAGE_SIZE },
  )
  const items: OperatorHospitalRequest[] = []
  for (const row of found.items) items.push(await toOperatorView(db, row))
  return { ...found, items }
}

export type Settlement = { hospitalId: string } | { declineReason: string }

export async function settleRequest(
  db: DB,
  operatorId: string,
  requestId: string,
  settlement: Settlement,
  now: Date,
): Promise<OperatorHospitalRequest> {
  const at = now.toISOString()
  const resolved = 'hospitalId' in settlement
  const declineReason = 'declineReason' in settlement ? settlement.declineReason : ''
  const hospital = resolved
    ? await db
        .selectFrom('hospitals')
        .select(['id', 'name'])
        .where('id', '=', settlement.hospitalId)
        .executeTakeFirst()
    : undefined
  if (resolved && !hospital) throw badRequest(HOSPITAL_REQUEST_MESSAGES.hospitalUnknown)
  await db.transaction().execute(async (trx) => {
    const result = await trx
      .updateTable('hospital_requests')
      .set({
        status: resolved ? 'added' : 'declined',
        hospital_id: hospital?.id ?? null,
        decline_reason: resolved ? null : declineReason,
        decided_by: operatorId,
        decided_at: at,
      })
      .where('id', '=', requestId)
      .where('status', '=', 'pending')
      .executeTakeFirst()
    if (Number(result.numUpdatedRows) !== 1) {
      const exists = await findRequest(trx, requestId)
      throw exists
        ? conflict(HOSPITAL_REQUEST_MESSAGES.alreadyDecided)
        : notFound(HOSPITAL_REQUEST_MESSAGES.notFound)
    }
    const row = (await findRequest(trx, requestId))!
    if (hospital) {
      // The applications that wait for it now name it; one the applicant has since pointed at
      // another hospital (hospital_request_id cleared) is not touched.
      await trx
        .updateTable('expert_applications')
        .set((eb) => ({ hospital_id: hospital.id, updated_at: at, version: eb('version', '+', 1) }))
        .where('hospital_request_id', '=', requestId)
        .where('status', 'in', ['draft', 'pending', 'rejected'])
        .execute()
    }
    await createMessage(
      trx,
      {
        userId: row.user_id,
        kind: 'system',
        title: hospital ? '医院已添加' : '医院申请未通过',
        body: hospital
          ? `您申请添加的医院「${row.name}」已添加为「${hospital.name}」，您的专家认证申请已随之更新。`
          : `您申请添加的医院「${row.name}」未被添加，原因：${declineReason}\n请在专家认证中重新选择医院。`,
        link: { route: 'expertPerfect', params: {} },
      },
      now,
    )
    await recordOperatorAction(
      trx,
      {
        operatorId,
        action: hospital ? 'hospital-request-resolve' : 'hospital-request-decline',
        targetId: requestId,
        detail: hospital ? `${row.name} → ${hospital.name}` : `${row.name}：${declineReason}`,
      },
      now,
    )
  })
  return toOperatorView(db, (await findRequest(db, requestId))!)
}
