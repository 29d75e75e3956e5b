import { randomBytes } from 'node:crypto'
import { CONSULT_CONSENT_VERSION } from '@contract/main/consultations'
import {
  acceptConsultation,
  adoptConsultation,
  answer,
  type ConsultContext,
  confirmDemoPayment,
  createConsultation,
  removeFromList,
  runTimer,
  startPayment,
} from '../consultations'
import { DEMO_ACCOUNTS, findUserByMobile } from '../identity'
import { boundIdentity } from '../records'
import { isDemoPaymentProvider } from '../../providers/payments/demo'

/*
 * Demo mode: the demo expert's wallet is not empty. Three 影像会诊 of the demo patient's chest CT are
 * asked, paid (演示支付), accepted, answered, adopted and settled through the real flow, so the
 * ledger, 交易记录 and their details are what real use writes; the patient later removed them from
 * 我的咨询 (删除), so the patient's demo keeps its three consultations. Two things are the demo's:
 * they are priced at ¥1,000 (the expert's price is set for them and put back: a real expert sets it
 * in 服务设置), so the wallet holds ¥2,400 and a withdrawal above the ¥2,000 审核 threshold can be
 * tried; and their 7-day 投诉 window is skipped (settle_at moved to now, then the real settlement
 * runs). The 已完成 consultation of the consultations' demo stays 待结算.
 * Runs once per database (its seed_runs marker), after the demo consultations exist.
 */

export const DEMO_WALLET_MARKER = 'wallet-demo'
export const DEMO_WALLET_PRICE_FEN = 100_000
const DEMO_WALLET_CONSULTATIONS = 3

export async function seedDemoWallet(ctx: ConsultContext): Promise<boolean> {
  const db = ctx.db
  if (!isDemoPaymentProvider(ctx.payments)) return false
  const consultationsSeeded = await db
    .selectFrom('seed_runs')
    .select('name')
    .where('name', '=', 'consultations-demo')
    .executeTakeFirst()
  if (!consultationsSeeded) return false
  const now = ctx.now()
  const claim = await db
    .insertInto('seed_runs')
    .values({ name: DEMO_WALLET_MARKER, ran_at: now.toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst()
  if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return false
  const patient = await findUserByMobile(db, DEMO_ACCOUNTS[0].mobile)
  const expert = await findUserByMobile(db, DEMO_ACCOUNTS[1].mobile)
  if (!patient || !expert) return false
  const identity = await boundIdentity(db, ctx.cipher, patient.id)
  if (!identity) return false
  const ct = await db
    .selectFrom('exams')
    .leftJoin('reports', 'reports.exam_id', 'exams.id')
    .select(['exams.id', 'reports.id as report_id'])
    .where('exams.source', '=', 'hospital')
    .where('exams.patient_key', '=', identity.patientKey)
    .where('exams.modalities', 'like', '%CT%')
    .orderBy('exams.study_date', 'desc')
    .executeTakeFirst()
  if (!ct) return false
  const price = await db
    .selectFrom('experts')
    .select('imaging_price_fen')
    .where('user_id', '=', expert.id)
    .executeTakeFirstOrThrow()
  const clientId = () => `demo-${randomBytes(6).toString('hex')}`
  const made: string[] = []
  try {
    await db
      .updateTable('experts')
      .set({ imaging_price_fen: DEMO_WALLET_PRICE_FEN })
      .where('user_id', '=', expert.id)
      .execute()
    for (let n = 0; n < DEMO_WALLET_CONSULTATIONS; n += 1) {
      const created = await createConsultation(ctx, patient.id, {
        expertId: expert.id,
        service: 'imaging',
        chiefComplaint: [
          '体检胸部 CT 发现肺结节，想请专家再看一次',
          '肺结节随访复查，想了解变化',
          '胸部 CT 报告有磨玻璃影，想听专家意见',
        ][n]!,
        presentIllness: '无发热、咯血；近期无明显体重下降',
        pastHistory: '高血压 5 年，规律服药',
        allergies: '无',
        questions: '结节性质倾向于良性还是恶性？下一步怎么复查？',
        seenOffline: true,
        offlinePictureIds: [],
        examIds: [ct.id],
        reportIds: ct.report_id ? [ct.report_id] : [],
        externalExams: [],
        priceFen: DEMO_WALLET_PRICE_FEN,
        consent: { accepted: true, version: CONSULT_CONSENT_VERSION },
      })
      made.push(created.id)
      const pay = await startPayment(ctx, patient.id, created.id, 'h5')
      await confirmDemoPayment(ctx, patient.id, created.id, pay.demoToken ?? '')
      await acceptConsultation(ctx, expert.id, created.id)
      await answer(ctx, expert.id, {
        consultationId: created.id,
        clientId: clientId(),
        findings: '右肺上叶见一枚实性小结节，边缘光整，未见分叶、毛刺；纵隔淋巴结不大。',
        opinion: '考虑良性结节可能性大，目前无需手术或穿刺。',
        advice: '建议 12 个月后复查低剂量胸部 CT；如有咯血、持续胸痛请及时线下就诊。',
        password: DEMO_ACCOUNTS[1].password,
      })
      await adoptConsultation(ctx, patient.id, created.id)
      await removeFromList(ctx, patient.id, created.id)
    }
  } finally {
    await db
      .updateTable('experts')
      .set({ imaging_price_fen: price.imaging_price_fen })
      .where('user_id', '=', expert.id)
      .execute()
  }
  const at = ctx.now().toISOString()
  for (const id of made) {
    await db
      .updateTable('consultations')
      .set({ settle_at: at })
      .where('id', '=', id)
      .where('state', '=', 'completed')
      .execute()
    await runTimer(ctx, id)
  }
  return true
}
