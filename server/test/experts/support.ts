import assert from 'node:assert/strict'
import type { DB } from '../../src/db'
import { encodeJpeg } from '../../src/dicom/codecs'
import { NEW_EXPERT_SETTINGS } from '../../src/domain/experts/settings'
import { ensurePolicies, findCurrentPolicy } from '../../src/domain/policies'
import { json } from '../content/support'
import {
  buildProfileApp,
  type ProfileApp,
  signUp,
  type TestUser,
  validIdNumber,
} from '../domain/profile/support'

/** Shared by the expert certification tests (not a test file). */

export interface ExpertWorld {
  ctx: ProfileApp
  hospitalId: string
  agreementVersion: string
  jpeg: Buffer
}

/** A hospital experts can be certified at (三级甲等, a place with its region), written directly. */
export async function insertTestHospital(
  db: DB,
  fields: { id: string; name: string; at: string },
): Promise<void> {
  await db
    .insertInto('hospitals')
    .values({
      id: fields.id,
      name: fields.name,
      level: '三级甲等',
      province: '测试省',
      city: '测试市',
      address: '测试路 1 号',
      sort_order: 0,
      created_at: fields.at,
      region_code: '110101',
      region_name: '北京市东城区',
      ai_reporting: 0,
      demo: 0,
    })
    .execute()
}

export async function expertWorld(): Promise<ExpertWorld> {
  const ctx = await buildProfileApp({ logLevel: 'silent' })
  await ensurePolicies(ctx.app.db)
  const hospitalId = `hos-expert-${process.pid}`
  await insertTestHospital(ctx.app.db, {
    id: hospitalId,
    name: '认证测试市第一人民医院',
    at: ctx.clock.now().toISOString(),
  })
  const policy = await findCurrentPolicy(ctx.app.db, 'expert')
  assert.ok(policy, 'the expert agreement is published')
  const jpeg = Buffer.from(await encodeJpeg(new Uint8Array(96 * 64 * 3).fill(120), 96, 64, 3, 90))
  return { ctx, hospitalId, agreementVersion: policy.version, jpeg }
}

export function caller(world: ExpertWorld) {
  const { app } = world.ctx
  return (
    user: TestUser | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
  ) =>
    json(app, {
      method,
      url,
      ...(user ? { token: user.token } : {}),
      ...(payload === undefined ? {} : { payload }),
    })
}

export function multipart(bytes: Buffer) {
  const boundary = 'expertboundary'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="p.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

export async function uploadPhoto(
  world: ExpertWorld,
  user: TestUser,
  kind: string,
  bytes?: Buffer,
) {
  const { payload, headers } = multipart(bytes ?? world.jpeg)
  const res = await world.ctx.app.inject({
    method: 'POST',
    url: `/main/experts/application/photos?kind=${kind}`,
    payload,
    headers: { ...headers, authorization: `Bearer ${user.token}` },
  })
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read loosely, like json()
  const body = JSON.parse(res.body) as { data: any; error: string | null }
  return { status: res.statusCode, data: body.data, error: body.error }
}

let sequence = 300

/** An account with a bound ID card (name 李医生 unless said). */
export async function withCard(world: ExpertWorld, realName = '李医生'): Promise<TestUser> {
  const user = await signUp(world.ctx.app.db, world.ctx.clock.now())
  sequence += 1
  const res = await caller(world)(user, 'POST', '/main/account/idcard', {
    realName,
    idCard: validIdNumber('19800101', sequence),
  })
  assert.equal(res.status, 200, res.error ?? '')
  return user
}

export const PRACTICE_NO = '110101198001011'
export const QUALIFICATION_NO = '199811110101198001011234567'

export function fullDraft(world: ExpertWorld) {
  return {
    hospitalId: world.hospitalId,
    department: '放射科',
    title: 'attending',
    practiceCertificateNo: PRACTICE_NO,
    qualificationCertificateNo: QUALIFICATION_NO,
    practiceCategory: 'clinical',
    practiceScope: '医学影像和放射治疗专业',
    specialities: ['肺结节', '胸部影像'],
    introduction: '从事影像诊断十年。',
  }
}

/** A user with a complete, submitted (pending) application; answers its id. */
export async function pendingApplicant(world: ExpertWorld, realName?: string) {
  const call = caller(world)
  const user = await withCard(world, realName)
  const saved = await call(user, 'POST', '/main/experts/application', fullDraft(world))
  assert.equal(saved.status, 200, saved.error ?? '')
  for (const kind of ['practice-info', 'practice-registration']) {
    const up = await uploadPhoto(world, user, kind)
    assert.equal(up.status, 200, up.error ?? '')
  }
  const submitted = await call(user, 'POST', '/main/experts/application/submit', {
    agreementVersion: world.agreementVersion,
  })
  assert.equal(submitted.status, 200, submitted.error ?? '')
  assert.equal(submitted.data.status, 'pending')
  return { user, applicationId: submitted.data.id as string, application: submitted.data }
}

let hospitalSequence = 0

/** Another hospital (its place given) for the directory's filters. */
export async function addHospital(
  world: ExpertWorld,
  place: { name: string; province: string; city: string },
): Promise<string> {
  hospitalSequence += 1
  const id = `hos-expert-${process.pid}-${hospitalSequence}`
  await world.ctx.app.db
    .insertInto('hospitals')
    .values({
      id,
      ...place,
      level: '三级甲等',
      address: `${place.city}测试路 ${hospitalSequence} 号`,
      sort_order: hospitalSequence,
      created_at: world.ctx.clock.now().toISOString(),
      region_code: null,
      region_name: null,
      ai_reporting: 0,
      demo: 0,
    })
    .execute()
  return id
}

/**
 * A certified expert written straight into the database, as an approval writes the row (the full
 * flow is pendingApplicant + approve); the directory tests need several with chosen fields.
 */
export async function directExpert(
  world: ExpertWorld,
  fields: {
    name: string
    hospitalId?: string
    department?: string
    title?: string
    specialities?: string[]
    accepting?: boolean
    imagingEnabled?: boolean
    certifiedAt?: string
  },
): Promise<TestUser> {
  const user = await signUp(world.ctx.app.db, world.ctx.clock.now(), { role: 'expert' })
  const at = fields.certifiedAt ?? world.ctx.clock.now().toISOString()
  await world.ctx.app.db
    .insertInto('experts')
    .values({
      user_id: user.user.id,
      application_id: `direct-${user.user.id}`,
      name: fields.name,
      hospital_id: fields.hospitalId ?? world.hospitalId,
      department: fields.department ?? '放射科',
      title: fields.title ?? 'attending',
      specialities: JSON.stringify(fields.specialities ?? ['胸部影像']),
      introduction: `${fields.name}的简介`,
      certified_at: at,
      updated_at: at,
      suspended_at: null,
      suspended_reason: null,
      suspended_by: null,
      photo_path: null,
      demo: 0,
      ...NEW_EXPERT_SETTINGS,
      accepting: fields.accepting === false ? 0 : 1,
      imaging_enabled: fields.imagingEnabled === false ? 0 : 1,
    })
    .execute()
  return user
}
