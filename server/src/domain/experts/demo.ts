import { randomUUID } from 'node:crypto'
import type { ExpertTitle } from '@contract/main/experts'
import type { FieldCipher } from '../../crypto/field-cipher'
import type { DB } from '../../db'
import type { ExpertApplicationsTable } from '../../db/schema'
import { encodeJpeg } from '../../dicom/codecs'
import type { ObjectStore } from '../../storage/object-store'
import { DEMO_ACCOUNTS, findUserByMobile, idCardCheckChar } from '../identity'
import { findCurrentPolicy } from '../policies'
import { NEW_EXPERT_SETTINGS } from './settings'

/*
 * Demo mode's experts (issue 20), written once per database after start (they need the cipher for
 * the certificate numbers and ID cards, which seed.ts's steps have not):
 * - the demo expert account (13900000002) certified at 示例市第一人民医院 through an approved
 *   application with synthetic certificate numbers, every text marked 演示;
 * - ten more 演示专家 across departments and the three first demo hospitals, accounts nobody can
 *   sign in to (no phone, no password), so the directory looks like one;
 * - a pending application from a demo applicant with drawn certificate photos, waiting in the
 *   operators' queue so the review can be tried.
 * Every row is marked (experts.demo, fixed ids) and removeDemoExperts takes it all away, files
 * included, when a server starts with demo mode off.
 */

export const DEMO_EXPERTS_MARKER = 'experts-demo'
export const DEMO_APPLICANT_ID = 'demo-expert-applicant'
const DEMO_INTRO = '【演示专家】此为演示数据，并非真实医生，请勿据此就医。'

interface DemoExpert {
  id: string
  name: string
  hospitalId: string
  department: string
  title: ExpertTitle
  specialities: string[]
  accepting?: boolean
  textFen?: number
  imagingFen?: number
  imagingOff?: boolean
}

export const DEMO_EXPERTS: readonly DemoExpert[] = [
  {
    id: 'demo-expert-01',
    name: '林演示',
    hospitalId: 'demo-hospital-01',
    department: '放射科',
    title: 'chief',
    specialities: ['胸部影像', '肺结节', '肺癌筛查'],
    imagingFen: 30_000,
  },
  {
    id: 'demo-expert-02',
    name: '陈演示',
    hospitalId: 'demo-hospital-02',
    department: '放射科',
    title: 'associate-chief',
    specialities: ['神经影像', '脑血管病'],
  },
  {
    id: 'demo-expert-03',
    name: '黄演示',
    hospitalId: 'demo-hospital-03',
    department: '核医学科',
    title: 'chief',
    specialities: ['核医学', 'PET-CT', '肿瘤疗效评估'],
    textFen: 8_000,
    imagingFen: 50_000,
  },
  {
    id: 'demo-expert-04',
    name: '周演示',
    hospitalId: 'demo-hospital-01',
    department: '心内科',
    title: 'associate-chief',
    specialities: ['心血管影像', '冠脉CTA', '心血管疾病'],
    imagingOff: true,
  },
  {
    id: 'demo-expert-05',
    name: '吴演示',
    hospitalId: 'demo-hospital-02',
    department: '呼吸内科',
    title: 'attending',
    specialities: ['呼吸系统疾病', '间质性肺病'],
    textFen: 2_000,
  },
  {
    id: 'demo-expert-06',
    name: '郑演示',
    hospitalId: 'demo-hospital-03',
    department: '神经内科',
    title: 'chief',
    specialities: ['神经系统疾病', '癫痫影像'],
    accepting: false,
  },
  {
    id: 'demo-expert-07',
    name: '孙演示',
    hospitalId: 'demo-hospital-01',
    department: '骨科',
    title: 'attending',
    specialities: ['骨肌影像', '关节运动损伤', '脊柱疾病'],
  },
  {
    id: 'demo-expert-08',
    name: '马演示',
    hospitalId: 'demo-hospital-02',
    department: '普外科',
    title: 'associate-chief',
    specialities: ['腹部影像', '肝脏肿瘤', '胰腺疾病'],
  },
  {
    id: 'demo-expert-09',
    name: '朱演示',
    hospitalId: 'demo-hospital-03',
    department: '儿科',
    title: 'attending',
    specialities: ['儿科影像'],
    textFen: 1_500,
    imagingOff: true,
  },
  {
    id: 'demo-expert-10',
    name: '何演示',
    hospitalId: 'demo-hospital-03',
    department: '肿瘤科',
    title: 'resident',
    specialities: ['肿瘤综合治疗', '乳腺影像'],
  },
]

/** The demo expert account's certification: synthetic numbers (15 and 27 digits, not anyone's). */
const DEMO_ACCOUNT_EXPERT = {
  name: '演示专家',
  hospitalId: 'demo-hospital-01',
  department: '放射科',
  title: 'chief' as ExpertTitle,
  specialities: ['胸部影像', '肺结节', '神经影像'],
  idFirst17: '11010119750615004',
  practiceNo: '000000000000002',
  qualificationNo: '000000000000000000000000002',
}

const DEMO_APPLICANT = {
  name: '演示申请人',
  idFirst17: '11010119850920005',
  practiceNo: '000000000000003',
  qualificationNo: '000000000000000000000000003',
}

/**
 * A certificate page, drawn: a cream page, a dark red frame and title band, grey lines where the
 * text would be and a red seal. No words: it only has to look like a photo to review.
 */
async function drawCertificate(variant: number): Promise<Buffer> {
  const width = 640
  const height = 440
  const pixels = new Uint8Array(width * height * 3)
  const paint = (x: number, y: number, rgb: readonly [number, number, number]) => {
    const at = (y * width + x) * 3
    pixels[at] = rgb[0]
    pixels[at + 1] = rgb[1]
    pixels[at + 2] = rgb[2]
  }
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const frame = x < 18 || y < 18 || x >= width - 18 || y >= height - 18
      const band = y >= 40 && y < 80 && x >= 160 && x < 480
      const line =
        y >= 120 && y < 380 && (y - 120) % 40 < 10 && x >= 80 && x < (variant ? 460 : 540)
      const seal =
        (x - 500) ** 2 + (y - 330) ** 2 < 55 ** 2 && (x - 500) ** 2 + (y - 330) ** 2 > 45 ** 2
      paint(
        x,
        y,
        frame || band
          ? [140, 30, 30]
          : seal
            ? [210, 40, 40]
            : line
              ? [150, 150, 150]
              : [250, 246, 235],
      )
    }
  }
  return Buffer.from(await encodeJpeg(pixels, width, height, 3, 80))
}

function syntheticIdNumber(first17: string): string {
  return first17 + idCardCheckChar(first17)
}

/** Idempotent and safe with several processes: the marker row is claimed in the transaction. */
export async function seedDemoExperts(
  db: DB,
  cipher: FieldCipher,
  store: ObjectStore,
  now: Date,
): Promise<boolean> {
  const done = await db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', DEMO_EXPERTS_MARKER)
    .executeTakeFirst()
  if (done) return false
  const at = now.toISOString()
  const agreement = await findCurrentPolicy(db, 'expert')
  // The files first (the same keys every time): rows never point at nothing.
  const photos = await Promise.all(
    (['practice-info', 'practice-registration'] as const).map(async (kind, variant) => {
      const bytes = await drawCertificate(variant)
      const key = `experts/${DEMO_APPLICANT_ID}/demo-${kind}.jpg`
      await store.put(key, bytes, { contentType: 'image/jpeg' })
      return { kind, key, size: bytes.length }
    }),
  )
  const account = await findUserByMobile(db, DEMO_ACCOUNTS[1].mobile)

  return db.transaction().execute(async (trx) => {
    const claim = await trx
      .insertInto('seed_runs')
      .values({ name: DEMO_EXPERTS_MARKER, ran_at: at })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst()
    if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return false

    const bindCard = async (userId: string, holder: string, first17: string) => {
      const number = syntheticIdNumber(first17)
      const existing = await trx
        .selectFrom('id_cards')
        .select('holder_encrypted')
        .where('user_id', '=', userId)
        .executeTakeFirst()
      if (existing) return cipher.decrypt(existing.holder_encrypted)
      await trx
        .insertInto('id_cards')
        .values({
          id: randomUUID(),
          user_id: userId,
          holder_encrypted: cipher.encrypt(holder),
          number_encrypted: cipher.encrypt(number),
          number_hash: cipher.digest(number),
          created_at: at,
          verified_at: null,
          verified_by: null,
        })
        .execute()
      return holder
    }
    const application = (
      userId: string,
      fields: Pick<
        ExpertApplicationsTable,
        | 'status'
        | 'hospital_id'
        | 'department'
        | 'title'
        | 'practice_cert_encrypted'
        | 'qualification_cert_encrypted'
        | 'specialities'
        | 'introduction'
        | 'submitted_at'
        | 'decided_at'
      >,
    ): ExpertApplicationsTable => ({
      id: randomUUID(),
      user_id: userId,
      practice_category: 'clinical',
      practice_scope: '医学影像和放射治疗专业（演示）',
      hospital_request_id: null,
      agreement_version: agreement?.version ?? null,
      reject_reason: null,
      decided_by: null,
      version: 1,
      created_at: at,
      updated_at: at,
      ...fields,
    })

    // The demo expert account: certified through an approved application, like anyone.
    if (account && !account.deleted_at) {
      const certified = await trx
        .selectFrom('experts')
        .select('user_id')
        .where('user_id', '=', account.id)
        .executeTakeFirst()
      if (!certified) {
        const d = DEMO_ACCOUNT_EXPERT
        const name = await bindCard(account.id, d.name, d.idFirst17)
        const row = application(account.id, {
          status: 'approved',
          hospital_id: d.hospitalId,
          department: d.department,
          title: d.title,
          practice_cert_encrypted: cipher.encrypt(d.practiceNo),
          qualification_cert_encrypted: cipher.encrypt(d.qualificationNo),
          specialities: JSON.stringify(d.specialities),
          introduction: `${DEMO_INTRO}演示账号 13900000002 的专家主页。`,
          submitted_at: at,
          decided_at: at,
        })
        await trx.insertInto('expert_applications').values(row).execute()
        await trx
          .insertInto('experts')
          .values({
            user_id: account.id,
            application_id: row.id,
            name,
            hospital_id: d.hospitalId,
            department: d.department,
            title: d.title,
            specialities: JSON.stringify(d.specialities),
            introduction: row.introduction,
            certified_at: at,
            updated_at: at,
            suspended_at: null,
            suspended_reason: null,
            suspended_by: null,
            photo_path: null,
            demo: 1,
            ...NEW_EXPERT_SETTINGS,
          })
          .execute()
      }
    }

    // Ten more, accounts nobody signs in to; certified a day apart so the directory has an order.
    for (const [i, expert] of DEMO_EXPERTS.entries()) {
      const when = new Date(now.getTime() - (i + 1) * 86_400_000).toISOString()
      await trx
        .insertInto('users')
        .values({
          id: expert.id,
          mobile: null,
          nickname: '演示专家',
          avatar_url: null,
          gender: 'unknown',
          role: 'expert',
          password_hash: null,
          wechat_openid: null,
          created_at: when,
          updated_at: when,
          deleted_at: null,
        })
        .onConflict((oc) => oc.column('id').doNothing())
        .execute()
      await trx
        .insertInto('experts')
        .values({
          user_id: expert.id,
          application_id: `demo-${expert.id}`,
          name: expert.name,
          hospital_id: expert.hospitalId,
          department: expert.department,
          title: expert.title,
          specialities: JSON.stringify(expert.specialities),
          introduction: DEMO_INTRO,
          certified_at: when,
          updated_at: when,
          suspended_at: null,
          suspended_reason: null,
          suspended_by: null,
          photo_path: null,
          demo: 1,
          ...NEW_EXPERT_SETTINGS,
          accepting: expert.accepting === false ? 0 : 1,
          text_price_fen: expert.textFen ?? NEW_EXPERT_SETTINGS.text_price_fen,
          imaging_price_fen: expert.imagingFen ?? NEW_EXPERT_SETTINGS.imaging_price_fen,
          imaging_enabled: expert.imagingOff ? 0 : 1,
        })
        .onConflict((oc) => oc.column('user_id').doNothing())
        .execute()
    }

    // A pending application in the operators' queue, with drawn certificate photos.
    await trx
      .insertInto('users')
      .values({
        id: DEMO_APPLICANT_ID,
        mobile: null,
        nickname: DEMO_APPLICANT.name,
        avatar_url: null,
        gender: 'unknown',
        role: 'patient',
        password_hash: null,
        wechat_openid: null,
        created_at: at,
        updated_at: at,
        deleted_at: null,
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .execute()
    await bindCard(DEMO_APPLICANT_ID, DEMO_APPLICANT.name, DEMO_APPLICANT.idFirst17)
    const pending = application(DEMO_APPLICANT_ID, {
      status: 'pending',
      hospital_id: 'demo-hospital-02',
      department: '放射科',
      title: 'attending',
      practice_cert_encrypted: cipher.encrypt(DEMO_APPLICANT.practiceNo),
      qualification_cert_encrypted: cipher.encrypt(DEMO_APPLICANT.qualificationNo),
      specialities: JSON.stringify(['腹部影像', '急诊影像']),
      introduction: '演示申请：用于试用运营审核，并非真实医生。',
      submitted_at: at,
      decided_at: null,
    })
    await trx.insertInto('expert_applications').values(pending).execute()
    await trx
      .insertInto('expert_application_photos')
      .values(
        photos.map((photo) => ({
          id: randomUUID(),
          application_id: pending.id,
          kind: photo.kind,
          storage_key: photo.key,
          mime_type: 'image/jpeg',
          size_bytes: photo.size,
          width: 640,
          height: 440,
          created_at: at,
        })),
      )
      .execute()
    return true
  })
}

/**
 * Outside demo mode: the demo experts, the demo applicant (with its photo files) and the demo
 * expert account's profile go; the marker too, so demo mode writes them again later.
 */
export async function removeDemoExperts(db: DB, store: ObjectStore): Promise<number> {
  const ids = [...DEMO_EXPERTS.map((expert) => expert.id), DEMO_APPLICANT_ID]
  const demoRows = await db
    .selectFrom('experts')
    .select(['user_id', 'application_id'])
    .where('demo', '=', 1)
    .execute()
  const keys = await db
    .selectFrom('expert_application_photos')
    .innerJoin(
      'expert_applications',
      'expert_applications.id',
      'expert_application_photos.application_id',
    )
    .select('expert_application_photos.storage_key')
    .where('expert_applications.user_id', 'in', ids)
    .execute()
  const marker = await db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', DEMO_EXPERTS_MARKER)
    .executeTakeFirst()
  if (demoRows.length === 0 && keys.length === 0 && !marker) return 0
  const targets = [...new Set([...ids, ...demoRows.map((row) => row.user_id)])]
  await db.transaction().execute(async (trx) => {
    await trx
      .deleteFrom('favourites')
      .where('kind', '=', 'expert')
      .where('target_id', 'in', targets)
      .execute()
    await trx.deleteFrom('experts').where('demo', '=', 1).execute()
    await trx.deleteFrom('expert_applications').where('user_id', 'in', ids).execute()
    // The demo expert account's approved application (the account itself goes with the demo
    // accounts, seed.ts); its numbers are synthetic, but nothing of the demo stays.
    if (demoRows.length > 0) {
      await trx
        .deleteFrom('expert_applications')
        .where(
          'id',
          'in',
          demoRows.map((row) => row.application_id),
        )
        .execute()
    }
    await trx.deleteFrom('id_cards').where('user_id', 'in', ids).execute()
    await trx.deleteFrom('users').where('id', 'in', ids).execute()
    await trx.deleteFrom('seed_runs').where('name', '=', DEMO_EXPERTS_MARKER).execute()
  })
  for (const { storage_key } of keys) await store.delete(storage_key)
  return demoRows.length
}
