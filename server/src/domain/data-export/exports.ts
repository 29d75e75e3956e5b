import { createHash, randomBytes, randomUUID } from 'node:crypto'
import type { Readable } from 'node:stream'
import {
  DATA_EXPORT_DOWNLOAD_PATH,
  DATA_EXPORT_LINK_HOURS,
  DATA_EXPORT_MESSAGES,
  DATA_EXPORT_STATE_LABELS,
  type DataExport,
  type DataExportState,
} from '@contract/main/data-export'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { DataExportsTable } from '../../db/schema'
import { ApiError, badRequest, conflict, notFound } from '../../http/errors'
import type { ClientInfo } from '../../http/client'
import { insertQueuedJob, type JobRunner } from '../../jobs/runner'
import { maskMobile } from '../../masking'
import type { ObjectStore } from '../../storage'
import { recordAudit } from '../audit'
import { findUserById } from '../identity'
import { proveIdentity } from '../profile'
import { managedPeople } from '../records'

/*
 * The requests for a copy (PIPL art. 45) and their one-use links. Who may ask for whose data is
 * decided here only: the person, or the manager of a 亲情卡 member (records.managedPeople: an
 * active family link). A grant gives nobody this: whoever is not the person or their manager gets
 * the same 404 as for a person who does not exist. The asker proves it is them again (password or
 * a `verify-old` code, profile.proveIdentity), the request is audited, and the job (job.ts) builds
 * the archive and sends the link to the asker's own phone.
 *
 * The link's token is 32 random bytes; only its SHA-256 is stored. The download flips the row
 * from `sent` to `downloaded` in one UPDATE guarded by state and expiry, so two clicks (or two
 * processes) never both stream it; the archive is deleted once it has been sent, and by the timer
 * job when the link expires unused.
 */

export const DATA_EXPORT_JOB_KIND = 'data-export'
export const LINK_MS = DATA_EXPORT_LINK_HOURS * 60 * 60 * 1000
const LIST_LIMIT = 20

export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex')

/** `exports/<id>/`: everything stored for one export. */
export const exportPrefix = (exportId: string) => `exports/${exportId}/`

/** The link the SMS carries: the origin recorded at the request + the download path + the token. */
export function downloadLink(origin: string | null, token: string): string {
  const base = origin?.replace(/\/+$/, '') ?? ''
  return `${base}${DATA_EXPORT_DOWNLOAD_PATH}?token=${token}`
}

export const newToken = () => randomBytes(32).toString('base64url')

interface Person {
  id: string
  label: string
}

/** The caller and the members they manage: whose data the caller may export. */
async function peopleInReach(db: DB, cipher: FieldCipher, callerId: string): Promise<Person[]> {
  const members = await managedPeople(db, cipher, callerId)
  const names = members.length
    ? await db
        .selectFrom('users')
        .select(['id', 'nickname'])
        .where(
          'id',
          'in',
          members.map((member) => member.personId),
        )
        .execute()
    : []
  const nameOf = new Map(names.map((row) => [row.id, row.nickname]))
  return [
    { id: callerId, label: '本人' },
    ...members.map((member) => ({
      id: member.personId,
      label: `${nameOf.get(member.personId) ?? '家庭成员'}（家庭成员）`,
    })),
  ]
}

/** The state as the person sees it now: a sent link past its time is 已过期 before the timer runs. */
function effectiveState(row: DataExportsTable, now: Date): DataExportState {
  if (row.state === 'sent' && row.expires_at && row.expires_at <= now.toISOString())
    return 'expired'
  return row.state as DataExportState
}

function toDataExport(
  row: DataExportsTable,
  people: Person[],
  mobile: string | null,
  now: Date,
): DataExport {
  const state = effectiveState(row, now)
  return {
    id: row.id,
    personId: row.person_user_id,
    personLabel: people.find((person) => person.id === row.person_user_id)?.label ?? '家庭成员',
    state,
    stateLabel: DATA_EXPORT_STATE_LABELS[state],
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    downloadedAt: row.downloaded_at,
    sizeBytes: row.size_bytes === null ? null : Number(row.size_bytes),
    mobileMasked: mobile && state !== 'building' && state !== 'failed' ? maskMobile(mobile) : null,
    message: state === 'failed' ? (row.message ?? DATA_EXPORT_MESSAGES.failed) : null,
  }
}

export async function listDataExports(db: DB, cipher: FieldCipher, callerId: string, now: Date) {
  const people = await peopleInReach(db, cipher, callerId)
  const caller = await findUserById(db, callerId)
  const rows = await db
    .selectFrom('data_exports')
    .selectAll()
    .where('requested_by_user_id', '=', callerId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(LIST_LIMIT)
    .execute()
  return {
    people,
    items: rows.map((row) => toDataExport(row, people, caller?.mobile ?? null, now)),
  }
}

export interface RequestContext {
  db: DB
  cipher: FieldCipher
  now: () => Date
  jobs: JobRunner
}

export async function requestDataExport(
  ctx: RequestContext,
  callerId: string,
  input: {
    personId?: string | undefined
    password?: string | undefined
    smsCode?: string | undefined
  },
  client: ClientInfo,
  /** What the link will start with (routes decide: PUBLIC_URL, or the request's origin). */
  linkOrigin: string | null,
): Promise<DataExport> {
  const { db } = ctx
  const caller = await findUserById(db, callerId)
  if (!caller) throw notFound(DATA_EXPORT_MESSAGES.personNotFound)
  const people = await peopleInReach(db, ctx.cipher, callerId)
  const personId = input.personId ?? callerId
  // A grant, a consultation, a stranger: the same answer as an id that does not exist.
  if (!people.some((person) => person.id === personId))
    throw notFound(DATA_EXPORT_MESSAGES.personNotFound)
  if (!caller.mobile) throw badRequest(DATA_EXPORT_MESSAGES.noMobile)
  if (!input.password && !input.smsCode) throw badRequest(DATA_EXPORT_MESSAGES.reauthRequired)
  await proveIdentity(
    db,
    caller,
    { password: input.password, oldCode: input.smsCode },
    ctx.now(),
    client.ip,
  )
  const now = ctx.now()
  const at = now.toISOString()
  const id = randomUUID()
  const job = await db.transaction().execute(async (trx) => {
    // The person's row is held first (a no-op update: the row lock on PostgreSQL, the write lock on
    // SQLite), so of requests made at once only one finds no export building and queues one.
    await trx
      .updateTable('users')
      .set((eb) => ({ deleted_at: eb.ref('deleted_at') }))
      .where('id', '=', personId)
      .execute()
    const building = await trx
      .selectFrom('data_exports')
      .select('id')
      .where('person_user_id', '=', personId)
      .where('state', '=', 'building')
      .executeTakeFirst()
    if (building) throw conflict(DATA_EXPORT_MESSAGES.inProgress)
    const queued = await insertQueuedJob(trx, {
      kind: DATA_EXPORT_JOB_KIND,
      userId: callerId,
      stagingPrefix: `jobs-without-files/${id}/`,
      subjectId: id,
    })
    await trx
      .insertInto('data_exports')
      .values({
        id,
        person_user_id: personId,
        requested_by_user_id: callerId,
        job_id: queued.id,
        state: 'building',
        archive_key: null,
        size_bytes: null,
        token_hash: null,
        expires_at: null,
        downloaded_at: null,
        message: null,
        link_origin: linkOrigin,
        created_at: at,
        updated_at: at,
      })
      .execute()
    return queued
  })
  await recordAudit(db, {
    userId: callerId,
    kind: 'data-export',
    client,
    now,
    detail: personId === callerId ? '本人' : '家庭成员',
  })
  await ctx.jobs.dispatch(job)
  const row = await db
    .selectFrom('data_exports')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow()
  return toDataExport(row, people, caller.mobile, now)
}

export interface Download {
  body: Readable
  size: number
  fileName: string
  /** Deletes the archive: called once the response has ended, sent whole or not. */
  done: () => Promise<void>
}

/**
 * Takes the one download a link allows. Unknown token: 404; used or expired: 410 with what to do.
 * Audited for the account that asked (its phone received the link).
 */
export async function takeDownload(
  ctx: { db: DB; store: ObjectStore; now: () => Date },
  token: string,
  client: ClientInfo,
): Promise<Download> {
  const { db } = ctx
  const hash = hashToken(token)
  const now = ctx.now()
  const at = now.toISOString()
  const row = await db
    .selectFrom('data_exports')
    .selectAll()
    .where('token_hash', '=', hash)
    .executeTakeFirst()
  if (!row || !row.archive_key) throw notFound(DATA_EXPORT_MESSAGES.linkInvalid)
  const taken = await db
    .updateTable('data_exports')
    .set({ state: 'downloaded', downloaded_at: at, updated_at: at })
    .where('id', '=', row.id)
    .where('state', '=', 'sent')
    .where('expires_at', '>', at)
    .executeTakeFirst()
  if (Number(taken.numUpdatedRows) !== 1) {
    if (row.state === 'downloaded') throw new ApiError(410, DATA_EXPORT_MESSAGES.linkUsed)
    throw new ApiError(410, DATA_EXPORT_MESSAGES.linkExpired)
  }
  await recordAudit(db, {
    userId: row.requested_by_user_id,
    kind: 'data-export-download',
    client,
    now,
    detail: row.person_user_id === row.requested_by_user_id ? '本人' : '家庭成员',
  })
  const key = row.archive_key
  const object = await ctx.store.get(key)
  return {
    body: object.body,
    size: object.size,
    fileName: `yingxiang-data-${at.slice(0, 10).replaceAll('-', '')}.zip`,
    done: () => ctx.store.deletePrefix(exportPrefix(row.id)).then(() => undefined),
  }
}

/** Ends a link nobody used in time: its archive goes, its row says 已过期. */
export async function expireExport(
  ctx: { db: DB; store: ObjectStore; now: () => Date },
  exportId: string,
): Promise<boolean> {
  const at = ctx.now().toISOString()
  const result = await ctx.db
    .updateTable('data_exports')
    .set({ state: 'expired', token_hash: null, updated_at: at })
    .where('id', '=', exportId)
    .where('state', '=', 'sent')
    .where('expires_at', '<=', at)
    .executeTakeFirst()
  if (Number(result.numUpdatedRows) !== 1) return false
  await ctx.store.deletePrefix(exportPrefix(exportId))
  return true
}

/**
 * The retention schedule's rule `export-archives` (domain/retention): every link unused past its
 * 24 hours ends and its archive goes, in case its timer job never ran (a store down, a job lost).
 * Answers how many ended.
 */
export async function expireOverdueExports(
  ctx: { db: DB; store: ObjectStore; now: () => Date },
  limit: number,
): Promise<number> {
  const at = ctx.now().toISOString()
  const overdue = await ctx.db
    .selectFrom('data_exports')
    .select('id')
    .where('state', '=', 'sent')
    .where('expires_at', '<=', at)
    .limit(limit)
    .execute()
  let ended = 0
  for (const { id } of overdue) if (await expireExport(ctx, id)) ended += 1
  return ended
}
