import { randomBytes } from 'node:crypto'
import { CONSULT_CONSENT_VERSION } from '@contract/main/consultations'
import { DEMO_ACCOUNTS, findUserByMobile } from '../identity'
import { isDemoPaymentProvider } from '../../providers/payments/demo'
import { boundIdentity } from '../records'
import { DEMO_EXPERTS } from '../experts'
import type { ConsultContext } from './context'
import { acceptConsultation, adoptConsultation, declineConsultation, rate } from './lifecycle'
import { createConsultation, startPayment, confirmDemoPayment } from './orders'
import { answer, sendMessage } from './conversation'

/*
 * Demo mode: the demo patient's consultations, one in each state a person should see on first
 * look, made through the real flow (submission, 演示支付, the expert's calls, signed answer) so the
 * ledger, the grants and the messages are exactly what real use writes:
 *   - 已完成: 图文咨询 with the demo expert account, answered, 采纳, rated;
 *   - 待接诊: 影像会诊 of the demo chest CT with its report, paid, waiting for the demo expert;
 *   - 专家未接诊 (refunded): declined by another demo expert with a reason.
 * Runs once per database (its seed_runs marker), after the demo records exist.
 */

export const DEMO_CONSULTATIONS_MARKER = 'consultations-demo'

export async function seedDemoConsultations(ctx: ConsultContext): Promise<boolean> {
  const db = ctx.db
  if (!isDemoPaymentProvider(ctx.payments)) return false
  const now = ctx.now()
  const claim = await db
    .insertInto('seed_runs')
    .values({ name: DEMO_CONSULTATIONS_MARKER, ran_at: now.toISOString() })
    .onConflict((oc) => oc.column('name').doNothing())
    .executeTakeFirst()
  if (Number(claim.numInsertedOrUpdatedRows ?? 0n) === 0) return false
  try {
    const patient = await findUserByMobile(db, DEMO_ACCOUNTS[0].mobile)
    const expert = await findUserByMobile(db, DEMO_ACCOUNTS[1].mobile)
    if (!patient || !expert) throw new Error('demo accounts are missing')
    const identity = await boundIdentity(db, ctx.cipher, patient.id)
    if (!identity) throw new Error('the demo patient has no bound card yet')
    const exams = await db
      .selectFrom('exams')
      .leftJoin('reports', 'reports.exam_id', 'exams.id')
      .select(['exams.id', 'exams.modalities', 'reports.id as report_id'])
      .where('exams.source', '=', 'hospital')
      .where('exams.patient_key', '=', identity.patientKey)
      .orderBy('exams.study_date', 'desc')
      .execute()
    const ct = exams.find((exam) => exam.modalities.includes('CT')) ?? exams[0]
    if (!ct) {
      // The demo studies are still being stored (STOW jobs): the next call tries again.
      await db.deleteFrom('seed_runs').where('name', '=', DEMO_CONSULTATIONS_MARKER).execute()
      return false
    }
    const other = exams.find((exam) => exam.id !== ct.id) ?? ct

    const submit = async (
      expertId: string,
      service: 'text' | 'imaging',
      examId: string,
      reportId: string | null,
      text: { chief: string; questions: string },
    ) => {
      const quote = await db
        .selectFrom('experts')
        .select(['text_price_fen', 'imaging_price_fen'])
        .where('user_id', '=', expertId)
        .executeTakeFirstOrThrow()
      const created = await createConsultation(ctx, patient.id, {
        expertId,
        service,
        chiefComplaint: text.chief,
        presentIllness: '无发热、咯血；近期无明显体重下降',
        pastHistory: '高血压 5 年，规律服药',
        allergies: '无',
        questions: text.questions,
        seenOffline: true,
        offlinePictureIds: [],
        examIds: [examId],
        reportIds: reportId ? [reportId] : [],
        externalExams: [],
        priceFen: Number(service === 'text' ? quote.text_price_fen : quote.imaging_price_fen),
        consent: { accepted: true, version: CONSULT_CONSENT_VERSION },
      })
      const pay = await startPayment(ctx, patient.id, created.id, 'h5')
      await confirmDemoPayment(ctx, patient.id, created.id, pay.demoToken ?? '')
      return created.id
    }
    const clientId = () => `demo-${randomBytes(6).toString('hex')}`

    // 已完成: asked, answered, 采纳, rated.
    const done = await submit(expert.id, 'text', other.id, other.report_id, {
      chief: '体检发现肺部小结节 1 个月',
      questions: '这个结节需要手术吗？多久复查一次？',
    })
    await acceptConsultation(ctx, expert.id, done)
    await sendMessage(ctx, patient.id, {
      consultationId: done,
      clientId: clientId(),
      text: '医生您好，报告说有个小结节，我有点担心。',
    })
    await answer(ctx, expert.id, {
      consultationId: done,
      clientId: clientId(),
      opinion: '从报告描述看是小的实性结节，边缘光整，目前没有需要手术的表现。',
      advice:
        '建议 6–12 个月后复查低剂量胸部 CT，对比大小和形态；如有咯血、持续胸痛请及时线下就诊。',
      password: DEMO_ACCOUNTS[1].password,
    })
    await adoptConsultation(ctx, patient.id, done)
    await rate(ctx, patient.id, done, {
      stars: 5,
      tags: ['解答详细', '通俗易懂'],
      text: '解释得很清楚，放心多了。',
    })

    // 待接诊: the chest CT and its report, waiting for the demo expert.
    await submit(expert.id, 'imaging', ct.id, ct.report_id, {
      chief: '胸部 CT 提示磨玻璃结节，想请专家再看看片子',
      questions: '这个磨玻璃结节是良性的可能性大吗？需要做增强 CT 吗？',
    })

    // 专家未接诊: declined by another demo expert, refunded in full.
    const declined = await submit(DEMO_EXPERTS[0]!.id, 'text', other.id, null, {
      chief: '头痛 2 周，想咨询是否需要复查',
      questions: '需要再做头颅 MR 吗？',
    })
    await declineConsultation(
      ctx,
      DEMO_EXPERTS[0]!.id,
      declined,
      '该问题更适合神经内科医生解答，建议选择神经内科专家',
    )
    return true
  } catch (error) {
    // Each step above is its own commit: a failure half way leaves the ones before (the marker
    // stays, so a restart does not make them twice); the log says what is missing.
    ctx.log.error({ err: error }, 'demo consultations stopped half way')
    return false
  }
}
