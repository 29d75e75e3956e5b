import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, test } from 'node:test'
import { RETENTION_RULES, type RetentionRuleId } from '@contract/main/retention'
import type { DB } from '../../src/db'
import { createUser } from '../../src/domain/identity'
import { ACCOUNTS, checkLedger, postTransfer } from '../../src/domain/ledger'
import { eraseAccount } from '../../src/domain/profile'
import { ENFORCEMENT, purgeExpired, retentionCutoff } from '../../src/domain/retention'
import { LocalObjectStore } from '../../src/storage/local'
import { isolatedDatabase, openTestDatabase, TEST_DB_KIND } from '../helpers'
import { freshMobile, migratedDb, TestClock } from '../domain/identity/support'
import {
  insertConsultation,
  insertExam,
  insertExamRequest,
  insertGrant,
  insertMessage,
  insertOpinion,
  insertWithdrawal,
} from './support'

/*
 * The schedule on a fake clock, on both databases: for every rule, a record just inside its period
 * stays and one just past it goes (or is anonymised); what the law keeps is never touched.
 *
 * The clock starts at the real time: the database itself refuses deleting a signed opinion younger
 * than 15 years by its own clock (migration 0033), so the test's "15 years ago" must be the
 * database's too.
 */

let db: DB
let store: LocalObjectStore
let root: string
before(async () => {
  db = await migratedDb()
  root = await mkdtemp(path.join(tmpdir(), 'retention-'))
  store = new LocalObjectStore(root)
})
after(async () => {
  await rm(root, { recursive: true, force: true })
})

const MINUTE = 60_000
const clock = new TestClock(new Date().toISOString())
const now = clock.now()
/** A minute on either side of the rule's cutoff. */
const past = (id: RetentionRuleId) =>
  new Date(Date.parse(retentionCutoff(id, now)) - MINUTE).toISOString()
const inside = (id: RetentionRuleId) =>
  new Date(Date.parse(retentionCutoff(id, now)) + MINUTE).toISOString()

async function ids(table: 'audit_events' | 'sms_codes' | 'code_tickets', column = 'id') {
  return (
    await db
      .selectFrom(table)
      .select(column as 'id')
      .execute()
  ).map((row) => row.id)
}

test('every rule of the schedule is enforced, kept on purpose, or waiting for its owner to plug in', () => {
  for (const rule of RETENTION_RULES) {
    const enforcement = ENFORCEMENT[rule.id]
    if ('kept' in enforcement) assert.equal(rule.end, 'kept', rule.id)
    else if ('pluggedIn' in enforcement) assert.equal(rule.id, 'export-archives')
    else assert.notEqual(rule.period === null && rule.end !== 'anonymised', true, rule.id)
  }
  // The ledger has no period and no purge.
  assert.deepEqual(ENFORCEMENT.ledger, { kept: true })
})

test('the periods meet what the rules ask, and say so in words', () => {
  const at = new Date('2030-06-15T00:00:00.000Z')
  const cut = (id: RetentionRuleId) => retentionCutoff(id, at)
  // Floors from the law: logs at least 6 months, chat 3 years, medical records 15, tax papers 10.
  assert.ok(cut('security-events') <= '2029-12-15T00:00:00.000Z')
  assert.equal(cut('consultation-conversations'), '2027-06-15T00:00:00.000Z')
  assert.equal(cut('signed-opinions'), '2015-06-15T00:00:00.000Z')
  assert.equal(cut('consultation-applications'), '2015-06-15T00:00:00.000Z')
  assert.equal(cut('withdrawal-payees'), '2020-06-15T00:00:00.000Z')
  assert.equal(cut('grant-views'), '2027-06-15T00:00:00.000Z')
  // A ceiling from the export's promise: the copy is gone a day after it was made.
  assert.equal(cut('export-archives'), '2030-06-14T00:00:00.000Z')
  const UNITS = { years: '年', months: '个月', days: '天', hours: '小时' } as const
  for (const rule of RETENTION_RULES) {
    if (!rule.period) continue
    const [unit, n] = Object.entries(rule.period)[0] as [keyof typeof UNITS, number]
    if (n > 0)
      assert.ok(rule.keptFor.includes(`${n} ${UNITS[unit]}`), `${rule.id}: ${rule.keptFor}`)
  }
})

test('the schedule on a fake clock: just inside stays, just past goes; the ledger is never touched', async () => {
  const patient = await createUser(db, { mobile: freshMobile(), now })
  const expert = await createUser(db, { mobile: freshMobile(), now, role: 'expert' })
  const stays: Record<string, string[]> = {}
  const goes: Record<string, string[]> = {}
  const note = (bucket: Record<string, string[]>, table: string, id: string) => {
    ;(bucket[table] ??= []).push(id)
  }

  // security-events: 12 months.
  for (const [at, bucket] of [
    [past('security-events'), goes],
    [inside('security-events'), stays],
  ] as const) {
    const id = randomUUID()
    await db
      .insertInto('audit_events')
      .values({
        id,
        user_id: patient.id,
        kind: 'login',
        created_at: at,
        ip_masked: '203.0.113.*',
        client: 'Chrome · Windows',
        location: '未知位置',
        detail: null,
      })
      .execute()
    note(bucket, 'audit_events', id)
  }

  // sms-codes: a day after the code (or ticket) expired.
  for (const [at, bucket] of [
    [past('sms-codes'), goes],
    [inside('sms-codes'), stays],
  ] as const) {
    const code = randomUUID()
    await db
      .insertInto('sms_codes')
      .values({
        id: code,
        mobile: freshMobile(),
        purpose: 'login',
        code_hash: 'x',
        attempts: 0,
        expires_at: at,
        consumed_at: null,
        created_at: at,
        ip_hash: 'x',
        scope: null,
      })
      .execute()
    note(bucket, 'sms_codes', code)
    const ticket = randomUUID()
    await db
      .insertInto('code_tickets')
      .values({
        id: ticket,
        ticket_hash: randomUUID(),
        mobile: freshMobile(),
        purpose: 'login',
        expires_at: at,
        used_at: null,
        created_at: at,
      })
      .execute()
    note(bucket, 'code_tickets', ticket)
  }

  // limit-counters: login failures a day after their last change.
  for (const [at, bucket] of [
    [past('limit-counters'), goes],
    [inside('limit-counters'), stays],
  ] as const) {
    const mobile = `rt-${randomUUID()}`
    await db
      .insertInto('login_failures')
      .values({ mobile, failures: 1, locked_until: null, updated_at: at })
      .execute()
    note(bucket, 'login_failures', mobile)
  }

  // sessions: once the refresh token expired.
  for (const [at, bucket] of [
    [past('sessions'), goes],
    [inside('sessions'), stays],
  ] as const) {
    const id = randomUUID()
    await db
      .insertInto('sessions')
      .values({
        id,
        user_id: patient.id,
        access_hash: randomUUID(),
        refresh_hash: randomUUID(),
        access_expires_at: at,
        refresh_expires_at: at,
        created_at: at,
        revoked_at: null,
        family_id: id,
        family_started_at: at,
        rotated_at: null,
      })
      .execute()
    note(bucket, 'sessions', id)
  }

  // consultation-conversations: 3 years after the consultation ended.
  const ended3 = await insertConsultation(db, {
    id: randomUUID(),
    patient: patient.id,
    expert: expert.id,
    endedAt: past('consultation-conversations'),
    paidAt: past('consultation-conversations'),
  })
  const live3 = await insertConsultation(db, {
    id: randomUUID(),
    patient: patient.id,
    expert: expert.id,
    endedAt: inside('consultation-conversations'),
  })
  note(
    goes,
    'consultation_messages',
    await insertMessage(db, ended3, past('consultation-conversations')),
  )
  note(
    stays,
    'consultation_messages',
    await insertMessage(db, live3, inside('consultation-conversations')),
  )
  // The signed answer of the old consultation outlives its conversation (15 years).
  const answer = await insertMessage(
    db,
    ended3,
    past('consultation-conversations'),
    past('consultation-conversations'),
  )
  note(stays, 'consultation_messages', answer)
  note(
    stays,
    'opinions',
    await insertOpinion(db, ended3, answer, expert.id, past('consultation-conversations')),
  )
  const pictures: Record<string, string> = {}
  for (const [consultationId, bucket] of [
    [ended3, goes],
    [live3, stays],
  ] as const) {
    const id = randomUUID()
    const key = `consultations/${patient.id}/${id}.jpg`
    await store.put(key, Buffer.from('jpeg'), { contentType: 'image/jpeg' })
    await db
      .insertInto('consultation_pictures')
      .values({
        id,
        owner_user_id: patient.id,
        consultation_id: consultationId,
        object_key: key,
        content_type: 'image/jpeg',
        width: 1,
        height: 1,
        bytes: 4,
        created_at: past('consultation-picture-drafts'),
      })
      .execute()
    pictures[id] = key
    note(bucket, 'consultation_pictures', id)
    await db
      .insertInto('consultation_complaints')
      .values({
        consultation_id: consultationId,
        user_id: patient.id,
        text: '回复太简单',
        state: 'decided',
        refund_fen: 0,
        decision_note: '维持',
        decided_by: null,
        created_at: now.toISOString(),
        decided_at: now.toISOString(),
      })
      .execute()
    note(bucket, 'consultation_complaints', consultationId)
    await db
      .insertInto('opinion_drafts')
      .values({
        consultation_id: consultationId,
        expert_user_id: expert.id,
        template_id: 'chest-ct',
        variant_id: null,
        values_json: '{}',
        pins_json: '[]',
        ai_json: '{}',
        updated_at: now.toISOString(),
      })
      .execute()
    note(bucket, 'opinion_drafts', consultationId)
  }

  // consultation-picture-drafts: pictures no consultation used, 30 days.
  for (const [at, bucket] of [
    [past('consultation-picture-drafts'), goes],
    [inside('consultation-picture-drafts'), stays],
  ] as const) {
    const id = randomUUID()
    const key = `consultations/${patient.id}/${id}.jpg`
    await store.put(key, Buffer.from('jpeg'), { contentType: 'image/jpeg' })
    await db
      .insertInto('consultation_pictures')
      .values({
        id,
        owner_user_id: patient.id,
        consultation_id: null,
        object_key: key,
        content_type: 'image/jpeg',
        width: 1,
        height: 1,
        bytes: 4,
        created_at: at,
      })
      .execute()
    pictures[id] = key
    note(bucket, 'consultation_pictures', id)
  }

  // signed-opinions: 15 years after signing (opinion, its signed message, 检查建议).
  const ended15 = await insertConsultation(db, {
    id: randomUUID(),
    patient: patient.id,
    expert: expert.id,
    endedAt: past('consultation-applications'),
  })
  const live15 = await insertConsultation(db, {
    id: randomUUID(),
    patient: patient.id,
    expert: expert.id,
    endedAt: inside('consultation-applications'),
  })
  for (const [consultationId, at, bucket] of [
    [ended15, past('signed-opinions'), goes],
    [live15, inside('signed-opinions'), stays],
  ] as const) {
    const message = await insertMessage(db, consultationId, at, at)
    note(bucket, 'consultation_messages', message)
    note(bucket, 'opinions', await insertOpinion(db, consultationId, message, expert.id, at))
    note(bucket, 'exam_requests', await insertExamRequest(db, consultationId, expert.id, at))
  }

  // withdrawal-payees: 10 years after the withdrawal ended.
  const oldWithdrawal = await insertWithdrawal(db, expert.id, past('withdrawal-payees'))
  const newWithdrawal = await insertWithdrawal(db, expert.id, inside('withdrawal-payees'))

  // grant-views (3 years after the last view) and ai-analyses (1 year after the request).
  const exam = await insertExam(db, patient.id, now.toISOString())
  const grant = await insertGrant(db, patient.id, now.toISOString())
  // sessions: a link visitor's session once it expired.
  for (const [at, bucket] of [
    [past('sessions'), goes],
    [inside('sessions'), stays],
  ] as const) {
    const id = randomUUID()
    await db
      .insertInto('share_sessions')
      .values({ id, grant_id: grant, token_hash: randomUUID(), created_at: at, expires_at: at })
      .execute()
    note(bucket, 'share_sessions', id)
  }
  for (const [at, bucket] of [
    [past('grant-views'), goes],
    [inside('grant-views'), stays],
  ] as const) {
    const id = randomUUID()
    await db
      .insertInto('grant_views')
      .values({
        id,
        grant_id: grant,
        viewer_session: randomUUID(),
        viewer_user_id: null,
        record_kind: 'exam',
        record_id: exam,
        exam_id: exam,
        place: '未知位置',
        first_at: at,
        last_at: at,
      })
      .execute()
    note(bucket, 'grant_views', id)
  }
  // consents: a withdrawn consent's rows go 15 years after the withdrawal; a consent still given
  // stays however old; given again after a withdrawal, the new row stays with it.
  const consent = async (
    kind: string,
    target: string,
    seq: number,
    action: 'given' | 'withdrawn',
    at: string,
    bucket: Record<string, string[]>,
  ) => {
    const id = randomUUID()
    await db
      .insertInto('consents')
      .values({
        id,
        user_id: patient.id,
        subject_user_id: patient.id,
        kind,
        version: 'v1',
        target_id: target,
        channel: 'test',
        detail: null,
        action,
        seq,
        created_at: at,
      })
      .execute()
    note(bucket, 'consents', id)
  }
  await consent('grant', 'g-old', 1, 'given', past('consents'), goes)
  await consent('grant', 'g-old', 2, 'withdrawn', past('consents'), goes)
  await consent('grant', 'g-new', 1, 'given', past('consents'), stays)
  await consent('grant', 'g-new', 2, 'withdrawn', inside('consents'), stays)
  await consent('grant', 'g-live', 1, 'given', past('consents'), stays)
  await consent('subscribe', 'sub', 1, 'given', past('consents'), goes)
  await consent('subscribe', 'sub', 2, 'withdrawn', past('consents'), goes)
  await consent('subscribe', 'sub', 3, 'given', past('consents'), stays)

  for (const [at, bucket] of [
    [past('ai-analyses'), goes],
    [inside('ai-analyses'), stays],
  ] as const) {
    const id = randomUUID()
    // One live analysis per exam (0029): each its own exam.
    await db
      .insertInto('ai_analyses')
      .values({
        id,
        exam_id: await insertExam(db, patient.id, at),
        person_user_id: patient.id,
        requested_by_user_id: patient.id,
        provider_id: 'demo',
        provider_json: '{}',
        state: 'done',
        job_id: randomUUID(),
        message: null,
        template_id: null,
        result_json: '{}',
        created_at: at,
        updated_at: at,
        finished_at: at,
      })
      .execute()
    note(bucket, 'ai_analyses', id)
  }

  // unattached-uploads: a day.
  for (const [at, bucket] of [
    [past('unattached-uploads'), goes],
    [inside('unattached-uploads'), stays],
  ] as const) {
    const id = randomUUID()
    await store.put(`feedback/${patient.id}/${id}.jpg`, Buffer.from('jpeg'), {
      contentType: 'image/jpeg',
    })
    await db
      .insertInto('content_files')
      .values({
        id,
        kind: 'feedback',
        storage_key: `feedback/${patient.id}/${id}.jpg`,
        mime_type: 'image/jpeg',
        size_bytes: 4,
        width: 1,
        height: 1,
        uploaded_by_user_id: patient.id,
        created_at: at,
        attached_at: null,
        duration_seconds: null,
      })
      .execute()
    note(bucket, 'content_files', id)
  }

  // expert-applications: a deleted account's go at the next run; a live account's stay.
  const leaving = await createUser(db, { mobile: freshMobile(), now, role: 'expert' })
  for (const [userId, bucket] of [
    [leaving.id, goes],
    [expert.id, stays],
  ] as const) {
    const id = randomUUID()
    await db
      .insertInto('expert_applications')
      .values({
        id,
        user_id: userId,
        status: 'draft',
        hospital_id: null,
        department: null,
        title: null,
        practice_cert_encrypted: null,
        qualification_cert_encrypted: null,
        practice_category: null,
        practice_scope: null,
        specialities: '[]',
        introduction: '',
        agreement_version: null,
        reject_reason: null,
        submitted_at: null,
        decided_at: null,
        decided_by: null,
        hospital_request_id: null,
        version: 1,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute()
    note(bucket, 'expert_applications', id)
  }
  await db.transaction().execute((trx) => eraseAccount(trx, leaving.id, leaving.mobile, now))

  // deleted-accounts: an anonymised row that got a phone number back (a restore, a hand edit).
  const restored = await createUser(db, { mobile: freshMobile(), now })
  await db.transaction().execute((trx) => eraseAccount(trx, restored.id, restored.mobile, now))
  await db
    .updateTable('users')
    .set({ mobile: freshMobile(), nickname: '张三' })
    .where('id', '=', restored.id)
    .execute()

  // ledger: a real payment and completion of the old consultation, three years back.
  const paidAt = new Date(past('consultation-conversations'))
  await postTransfer(
    db,
    {
      eventKey: `payment:demo:${randomUUID()}`,
      kind: 'payment',
      consultationId: ended3,
      entries: [
        { account: ACCOUNTS.provider('demo'), amount: -6000 },
        { account: ACCOUNTS.escrow(ended3), amount: 6000 },
      ],
    },
    paidAt,
  )
  await postTransfer(
    db,
    {
      eventKey: `complete:${ended3}`,
      kind: 'complete',
      consultationId: ended3,
      entries: [
        { account: ACCOUNTS.escrow(ended3), amount: -6000 },
        { account: ACCOUNTS.expertPending(expert.id), amount: 4800 },
        { account: ACCOUNTS.platformRevenue(), amount: 1200 },
      ],
    },
    paidAt,
  )
  const ledgerRows = async () =>
    Promise.all([
      db.selectFrom('ledger_transfers').selectAll().orderBy('id').execute(),
      db.selectFrom('ledger_entries').selectAll().orderBy('id').execute(),
      db.selectFrom('ledger_statement_lines').selectAll().orderBy('transfer_id').execute(),
      db.selectFrom('ledger_accounts').selectAll().orderBy('id').execute(),
      db
        .selectFrom('consultations')
        .select(['id', 'price_fen', 'state', 'order_no', 'paid_at'])
        .orderBy('id')
        .execute(),
      db.selectFrom('withdrawals').select(['id', 'gross_fen', 'state']).orderBy('id').execute(),
    ])
  const ledgerBefore = await ledgerRows()
  assert.ok((await checkLedger(db, now)).ok)

  // export-archives: a link unused past its 24 hours ends and its archive goes (its own timer
  // job missed); one still inside its hours stays.
  const exportRow = async (expiresAt: string) => {
    const id = randomUUID()
    await db
      .insertInto('data_exports')
      .values({
        id,
        person_user_id: patient.id,
        requested_by_user_id: patient.id,
        job_id: null,
        state: 'sent',
        archive_key: `exports/${id}/archive.zip`,
        size_bytes: 3,
        token_hash: randomUUID(),
        expires_at: expiresAt,
        downloaded_at: null,
        message: null,
        link_origin: null,
        created_at: now.toISOString(),
        updated_at: now.toISOString(),
      })
      .execute()
    await store.put(`exports/${id}/archive.zip`, Buffer.from('zip'), {
      contentType: 'application/zip',
    })
    return id
  }
  const overdueExport = await exportRow(new Date(now.getTime() - MINUTE).toISOString())
  const liveExport = await exportRow(new Date(now.getTime() + MINUTE).toISOString())

  const counts = await purgeExpired(db, now, store)
  const exportState = async (id: string) =>
    (
      await db
        .selectFrom('data_exports')
        .select('state')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).state
  assert.equal(await exportState(overdueExport), 'expired')
  assert.equal(await store.exists(`exports/${overdueExport}/archive.zip`), false)
  assert.equal(await exportState(liveExport), 'sent')
  assert.equal(await store.exists(`exports/${liveExport}/archive.zip`), true)

  const present = async (table: string, id: string) => {
    const column =
      table === 'login_failures'
        ? 'mobile'
        : ['consultation_complaints', 'opinion_drafts'].includes(table)
          ? 'consultation_id'
          : 'id'
    const row = await (db as unknown as DB)
      .selectFrom(table as 'audit_events')
      .select(column as 'id')
      .where(column as 'id', '=', id)
      .executeTakeFirst()
    return row !== undefined
  }
  for (const [table, list] of Object.entries(stays)) {
    for (const id of list) assert.ok(await present(table, id), `${table} ${id} should stay`)
  }
  for (const [table, list] of Object.entries(goes)) {
    for (const id of list) assert.ok(!(await present(table, id)), `${table} ${id} should go`)
  }
  // Bytes go with their rows and only with them.
  for (const [id, key] of Object.entries(pictures)) {
    const kept = stays.consultation_pictures!.includes(id)
    assert.equal(await store.exists(key), kept, `picture ${id}`)
  }

  // consultation-applications: cleared 15 years after the end, the order kept.
  const application = async (id: string) =>
    db
      .selectFrom('consultations')
      .select([
        'chief_complaint',
        'present_illness',
        'past_history',
        'allergies',
        'questions',
        'external_exams_json',
        'rating_text',
        'published_at',
        'price_fen',
        'order_no',
      ])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  const cleared = await application(ended15)
  assert.deepEqual(
    [
      cleared.chief_complaint,
      cleared.present_illness,
      cleared.past_history,
      cleared.allergies,
      cleared.questions,
    ],
    ['', '', '', '', ''],
  )
  assert.equal(cleared.external_exams_json, JSON.stringify({ offline: [], exams: [] }))
  assert.equal(cleared.rating_text, null)
  assert.equal(cleared.published_at, null)
  assert.equal(Number(cleared.price_fen), 6000)
  const untouched = await application(live15)
  assert.equal(untouched.chief_complaint, '咳嗽两周')
  assert.equal(untouched.allergies, '青霉素')

  // withdrawal-payees: the identity goes after 10 years, the withdrawal stays.
  const payee = async (id: string) =>
    db
      .selectFrom('withdrawals')
      .select(['payee_name_encrypted', 'payee_id_number_encrypted', 'payee_hospital_name'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow()
  assert.deepEqual(await payee(oldWithdrawal), {
    payee_name_encrypted: null,
    payee_id_number_encrypted: null,
    payee_hospital_name: null,
  })
  assert.equal((await payee(newWithdrawal)).payee_id_number_encrypted, 'cipher-number')

  // deleted-accounts: anonymised again, never deleted.
  const row = await db
    .selectFrom('users')
    .select(['mobile', 'nickname', 'deleted_at'])
    .where('id', 'in', [restored.id, leaving.id])
    .execute()
  assert.equal(row.length, 2)
  for (const user of row) {
    assert.equal(user.mobile, null)
    assert.equal(user.nickname, '已注销用户')
    assert.notEqual(user.deleted_at, null)
  }

  // The ledger, the orders and the withdrawals: every row as it was, and ledger:check holds.
  assert.deepEqual(await ledgerRows(), ledgerBefore)
  const check = await checkLedger(db, now)
  assert.deepEqual(check.problems, [])

  assert.ok(counts.consultationMessages! >= 1 && counts.opinions! >= 1)
  // A second run finds nothing more to do.
  const again = await purgeExpired(db, now, store)
  assert.equal(
    Object.values(again).reduce((sum, n) => sum + n, 0),
    0,
    JSON.stringify(again),
  )
})

test('the database refuses deleting a signed opinion before its 15 years, and any update', async () => {
  const patient = await createUser(db, { mobile: freshMobile(), now })
  const expert = await createUser(db, { mobile: freshMobile(), now, role: 'expert' })
  const consultation = await insertConsultation(db, {
    id: randomUUID(),
    patient: patient.id,
    expert: expert.id,
    endedAt: now.toISOString(),
  })
  const young = new Date(Date.parse(retentionCutoff('signed-opinions', now)) + 2 * 24 * 3_600_000)
  const message = await insertMessage(db, consultation, young.toISOString(), young.toISOString())
  const opinion = await insertOpinion(db, consultation, message, expert.id, young.toISOString())
  await assert.rejects(
    db.deleteFrom('opinions').where('id', '=', opinion).execute(),
    /kept 15 years/,
  )
  await assert.rejects(
    db.updateTable('opinions').set({ patient_label: '改' }).where('id', '=', opinion).execute(),
    /immutable/,
  )
  // The purge on a clock that runs ahead does not get past the database either: its batch fails
  // and nothing is deleted (the next run, on a right clock, finds nothing due).
  const ahead = new Date(now.getTime() + 3 * 24 * 3_600_000)
  await assert.rejects(purgeExpired(db, ahead, store), /kept 15 years/)
  assert.ok(
    await db.selectFrom('opinions').select('id').where('id', '=', opinion).executeTakeFirst(),
  )
})

test('a backlog goes in bounded batches, run after run', async () => {
  const insertOld = async (n: number) => {
    const made: string[] = []
    for (let i = 0; i < n; i += 1) {
      const id = randomUUID()
      made.push(id)
      await db
        .insertInto('audit_events')
        .values({
          id,
          user_id: null,
          kind: 'login-failed',
          created_at: past('security-events'),
          ip_masked: '203.0.113.*',
          client: 'x',
          location: '未知位置',
          detail: null,
        })
        .execute()
    }
    return made
  }
  const backlog = await insertOld(5)
  const first = await purgeExpired(db, now, store, { size: 2, maxBatches: 2 })
  assert.equal(first.auditEvents, 4, 'two batches of two, then the run moves on')
  const second = await purgeExpired(db, now, store, { size: 2, maxBatches: 2 })
  assert.equal(second.auditEvents, 1)
  assert.deepEqual(
    (await ids('audit_events')).filter((id) => backlog.includes(id)),
    [],
  )
})

test('two server processes purging one database at once split the work and remove each row once', async () => {
  // Two handles on one database, as two server processes have: a file for SQLite (its own
  // connection each, WAL), one schema for PostgreSQL (a pool each).
  const config =
    TEST_DB_KIND === 'sqlite'
      ? ({ kind: 'sqlite', file: path.join(root, 'shared.sqlite') } as const)
      : isolatedDatabase()
  const a = openTestDatabase(config)
  await a.migrate()
  const b = openTestDatabase(config)
  const patient = await createUser(a.db, { mobile: freshMobile(), now })
  const events: string[] = []
  for (let i = 0; i < 60; i += 1) {
    const id = randomUUID()
    events.push(id)
    await a.db
      .insertInto('audit_events')
      .values({
        id,
        user_id: null,
        kind: 'login-failed',
        created_at: past('security-events'),
        ip_masked: '203.0.113.*',
        client: 'x',
        location: '未知位置',
        detail: null,
      })
      .execute()
  }
  const consultation = await insertConsultation(a.db, {
    id: randomUUID(),
    patient: patient.id,
    expert: patient.id,
    endedAt: past('consultation-conversations'),
  })
  for (let i = 0; i < 20; i += 1) {
    await insertMessage(a.db, consultation, past('consultation-conversations'))
  }
  const limits = { size: 4, maxBatches: 1000 }
  const runs = await Promise.all([
    purgeExpired(a.db, now, store, limits),
    purgeExpired(b.db, now, store, limits),
  ])
  // Each row was removed once, by one of them; a batch cut short by the other ends that run early,
  // and whatever that left waits for the next.
  const left = async () =>
    Promise.all([
      a.db.selectFrom('audit_events').select('id').where('id', 'in', events).execute(),
      a.db
        .selectFrom('consultation_messages')
        .select('id')
        .where('consultation_id', '=', consultation)
        .execute(),
    ])
  const [eventsLeft, messagesLeft] = await left()
  const sum = (key: string) => runs.reduce((total, run) => total + run[key]!, 0)
  assert.equal(sum('auditEvents') + eventsLeft.length, 60)
  assert.equal(sum('consultationMessages') + messagesLeft.length, 20)
  await purgeExpired(b.db, now, store)
  assert.deepEqual(await left(), [[], []])
})
