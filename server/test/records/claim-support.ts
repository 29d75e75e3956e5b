import { randomUUID } from 'node:crypto'
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { addHospital, issueHospitalKey } from '../../src/domain/hospitals'
import { upsertHospitalExam } from '../../src/domain/records/exams'
import { readOutbox } from '../../src/providers/sms'
import {
  bearer,
  buildProfileApp,
  freshIp,
  freshMobile,
  type ProfileApp,
  signUp,
  type TestUser,
} from '../domain/profile/support'

/** Shared by the claim and scan tests; not a test file itself. */

let counter = 0
function unique(): number {
  counter += 1
  return counter
}

export interface ClaimWorld extends ProfileApp {
  hospital: { id: string; name: string }
  /** The hospital's API key (Bearer). */
  hospitalKey: string
  other: { id: string; name: string; key: string }
}

export async function claimWorld(): Promise<ClaimWorld> {
  const ctx = await buildProfileApp()
  const now = ctx.clock.now()
  const hospital = await addHospital(ctx.app.db, { name: `影像测试医院${unique()}` }, now)
  const key = await issueHospitalKey(ctx.app.db, hospital.id, now)
  const other = await addHospital(ctx.app.db, { name: `另一家医院${unique()}` }, now)
  const otherKey = await issueHospitalKey(ctx.app.db, other.id, now)
  return {
    ...ctx,
    hospital: { id: hospital.id, name: hospital.name },
    hospitalKey: key.key,
    other: { id: other.id, name: other.name, key: otherKey.key },
  }
}

export interface PushedExam {
  id: string
  studyUid: string
  accessionNumber: string
  name: string
  phone: string | undefined
}

/** A hospital exam as a push leaves it (through the ingest core's upsert), optionally with a report. */
export async function pushExam(
  world: ClaimWorld,
  options: {
    hospitalId?: string
    name?: string
    phone?: string | null
    idNumber?: string
    report?: { status: string; conclusion?: string }
    description?: string
  } = {},
): Promise<PushedExam> {
  const n = unique()
  const studyUid = `1.2.826.0.1.3680043.8.498.${process.pid}.${n}`
  const accessionNumber = `CT2030${String(n).padStart(5, '0')}`
  const name = options.name ?? '张三'
  const phone = options.phone === null ? undefined : (options.phone ?? freshMobile())
  const now = world.clock.now()
  const exam = await upsertHospitalExam(
    world.app.db,
    world.app.personalCipher,
    {
      hospitalId: options.hospitalId ?? world.hospital.id,
      studyUid,
      accessionNumber,
      patient: {
        name,
        ...(phone ? { phone } : {}),
        ...(options.idNumber ? { idNumber: options.idNumber } : {}),
      },
      study: { date: '2030-05-20', description: options.description ?? '胸部 CT 平扫' },
    },
    now,
  )
  await world.app.db
    .updateTable('exams')
    .set({ modalities: 'CT' })
    .where('id', '=', exam.id)
    .execute()
  if (options.report) {
    const at = now.toISOString()
    await world.app.db
      .insertInto('reports')
      .values({
        id: randomUUID(),
        exam_id: exam.id,
        hospital_id: options.hospitalId ?? world.hospital.id,
        resource_id: `r-${n}`,
        status: options.report.status,
        version: 1,
        code_text: 'CT 胸部',
        findings: '双肺纹理清晰。',
        conclusion: options.report.conclusion ?? '未见明显异常。',
        performer: '李医生',
        reviewer: '王医生',
        effective_at: at,
        issued_at: at,
        resource_json: '{}',
        created_at: at,
        updated_at: at,
      })
      .execute()
  }
  return { id: exam.id, studyUid, accessionNumber, name, phone }
}

export async function patient(world: ClaimWorld): Promise<TestUser> {
  return signUp(world.app.db, world.clock.now())
}

export function post(
  world: ClaimWorld,
  url: string,
  payload: object,
  who: { token?: string; key?: string; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return world.app.inject({
    method: 'POST',
    url,
    payload,
    remoteAddress: who.ip ?? '203.0.113.9',
    headers: who.token ? bearer(who.token) : who.key ? { authorization: `Bearer ${who.key}` } : {},
  })
}

export function get(
  world: ClaimWorld,
  url: string,
  who: { token?: string; ip?: string } = {},
): Promise<LightMyRequestResponse> {
  return world.app.inject({
    method: 'GET',
    url,
    remoteAddress: who.ip ?? '203.0.113.9',
    headers: who.token ? bearer(who.token) : {},
  })
}

export function errorOf(res: LightMyRequestResponse): string {
  return res.json().error
}

/** The latest claim code sent to a phone, from the outbox (test app = demo mode). */
export async function claimCodeFor(world: ClaimWorld, phone: string): Promise<string> {
  const sent = await readOutbox(world.app.db, phone, { purposes: ['claim'] })
  const latest = sent.at(-1)
  assert.ok(latest, `no claim code sent to ${phone}`)
  return latest.code
}

/** Exams the user sees through the one authorisation check. */
export async function visibleExamIds(world: ClaimWorld, userId: string): Promise<string[]> {
  const { boundIdentity, visibleTo } = await import('../../src/domain/records/access')
  const identity = await boundIdentity(world.app.db, world.app.personalCipher, userId)
  const rows = await world.app.db
    .selectFrom('exams')
    .select('id')
    .where(visibleTo({ kind: 'user', userId }, identity))
    .execute()
  return rows.map((row) => row.id).sort()
}

export { freshIp, freshMobile }
