import { randomUUID } from 'node:crypto'
import type { DB } from '../../src/db'

/*
 * Rows of the retention tests, written straight into the tables with the times a test chooses (a
 * consultation that ended three years ago cannot be lived through on a fake clock in any other way).
 */

export interface ConsultationRow {
  id: string
  patient: string
  expert: string
  endedAt: string | null
  paidAt?: string | null
  createdAt?: string
}

export async function insertConsultation(db: DB, row: ConsultationRow): Promise<string> {
  const created = row.createdAt ?? row.endedAt ?? new Date().toISOString()
  await db
    .insertInto('consultations')
    .values({
      id: row.id,
      patient_user_id: row.patient,
      person_user_id: row.patient,
      expert_user_id: row.expert,
      service: 'text',
      state: row.endedAt ? 'completed' : 'in-progress',
      price_fen: 6000,
      expert_fen: 4800,
      platform_fen: 1200,
      share_bp: 2000,
      chief_complaint: '咳嗽两周',
      present_illness: '干咳，无发热',
      past_history: '无',
      allergies: '青霉素',
      questions: '结节要紧吗',
      seen_offline: 1,
      external_exams_json: JSON.stringify({ offline: ['p1'], exams: [] }),
      followup_limit: 3,
      followups_used: 0,
      grant_id: randomUUID(),
      consent_version: '1',
      order_no: `RT${randomUUID()}`,
      provider: 'demo',
      transaction_id: null,
      daily_slot_key: null,
      pay_by: created,
      paid_at: row.paidAt ?? null,
      ended_at: row.endedAt,
      completed_at: row.endedAt,
      message_seq: 0,
      patient_read_seq: 0,
      expert_read_seq: 0,
      rating_text: row.endedAt ? '很耐心' : null,
      published_at: row.endedAt,
      demo: 0,
      created_at: created,
      updated_at: created,
    })
    .execute()
  return row.id
}

let seq = 0

export async function insertMessage(
  db: DB,
  consultationId: string,
  at: string,
  signedAt: string | null = null,
): Promise<string> {
  const id = randomUUID()
  seq += 1
  await db
    .insertInto('consultation_messages')
    .values({
      id,
      consultation_id: consultationId,
      seq,
      sender: signedAt ? 'expert' : 'patient',
      sender_user_id: null,
      client_id: null,
      kind: signedAt ? 'answer' : 'text',
      text: signedAt ? '签名回复' : '医生您好',
      picture_id: null,
      record_kind: null,
      record_id: null,
      answer_json: null,
      signed_at: signedAt,
      created_at: at,
    })
    .execute()
  return id
}

export async function insertOpinion(
  db: DB,
  consultationId: string,
  messageId: string,
  expert: string,
  signedAt: string,
): Promise<string> {
  const id = randomUUID()
  await db
    .insertInto('opinions')
    .values({
      id,
      consultation_id: consultationId,
      message_id: messageId,
      expert_user_id: expert,
      template_id: 'chest-ct',
      template_version: 1,
      template_title: '胸部 CT',
      values_json: '{}',
      sentences_json: '[]',
      pins_json: '[]',
      ai_json: 'null',
      signer_json: '{}',
      patient_label: '患者 男 45岁',
      verify_code: randomUUID(),
      content_hash: 'x',
      signed_at: signedAt,
    })
    .execute()
  return id
}

export async function insertExamRequest(
  db: DB,
  consultationId: string,
  expert: string,
  at: string,
): Promise<string> {
  const id = randomUUID()
  await db
    .insertInto('exam_requests')
    .values({
      id,
      number: `JC${randomUUID().slice(0, 14)}`,
      consultation_id: consultationId,
      message_id: randomUUID(),
      expert_user_id: expert,
      client_id: randomUUID(),
      exam_type: 'ct',
      exam_name: null,
      body_part: '胸部',
      contrast: 'none',
      urgency: 'routine',
      reason: '随访',
      patient_json: '{}',
      expert_json: '{}',
      created_at: at,
    })
    .execute()
  return id
}

export async function insertExam(db: DB, owner: string, at: string): Promise<string> {
  const id = randomUUID()
  await db
    .insertInto('exams')
    .values({
      id,
      hospital_id: null,
      owner_user_id: owner,
      source: 'upload',
      study_uid: null,
      accession_number: null,
      patient_key: null,
      patient_name_hash: null,
      patient_name_encrypted: null,
      patient_phone_encrypted: null,
      patient_sex: null,
      patient_birth_date: null,
      modalities: 'CT',
      body_part: null,
      description: null,
      study_date: null,
      study_time: null,
      title: null,
      hospital_text: null,
      notes: null,
      series_count: 0,
      instance_count: 0,
      size_bytes: 0,
      status: 'ready',
      status_message: null,
      created_at: at,
      updated_at: at,
    })
    .execute()
  return id
}

export async function insertGrant(db: DB, person: string, at: string): Promise<string> {
  const id = randomUUID()
  await db
    .insertInto('grants')
    .values({
      id,
      person_user_id: person,
      created_by_user_id: person,
      audience: 'link',
      grantee_user_id: null,
      token_hash: randomUUID(),
      pickup_hash: null,
      max_views: null,
      opens: 0,
      created_at: at,
      expires_at: at,
      revoked_at: null,
      purpose: 'share',
      consultation_id: null,
    })
    .execute()
  return id
}

export async function insertWithdrawal(
  db: DB,
  expert: string,
  finishedAt: string,
): Promise<string> {
  const id = randomUUID()
  await db
    .insertInto('withdrawals')
    .values({
      id,
      expert_user_id: expert,
      client_id: randomUUID(),
      out_bill_no: `WD${randomUUID()}`,
      active_key: null,
      gross_fen: 10000,
      tax_fen: 0,
      net_fen: 10000,
      tax_json: '{}',
      tax_year: 2020,
      tax_month: '2020-01',
      day: finishedAt.slice(0, 10),
      // Failed: the ledger paid nothing out and holds nothing for it, so ledger:check agrees.
      state: 'failed',
      reason: '测试',
      target_label: '微信零钱（张*）',
      provider: 'demo',
      provider_state: null,
      provider_code: null,
      provider_bill_no: null,
      package_info: null,
      created_at: finishedAt,
      updated_at: finishedAt,
      sent_at: null,
      paid_at: null,
      finished_at: finishedAt,
      reviewed_by: null,
      reviewed_at: null,
      payee_name_encrypted: 'cipher-name',
      payee_id_number_encrypted: 'cipher-number',
      payee_hospital_name: '示例医院',
    })
    .execute()
  return id
}
