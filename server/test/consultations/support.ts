import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { CONSULT_CONSENT_VERSION } from '@contract/main/consultations'
import { buildApp } from '../../src/app'
import { checkLedger } from '../../src/domain/ledger'
import { createSession } from '../../src/domain/identity'
import { NEW_EXPERT_SETTINGS } from '../../src/domain/experts/settings'
import { demoPaymentProvider } from '../../src/providers/payments/demo'
import type { PaymentProvider } from '../../src/providers/payments/types'
import { json } from '../content/support'
import { insertTestHospital } from '../experts/support'
import { Clock } from '../domain/profile/support'
import { signUp, type TestUser, validIdNumber } from '../domain/profile/support'
import type { Config } from '../../src/config'
import { closeAfter, testConfig } from '../helpers'
import { insertUploadExam } from '../records/patient-support'

/** Shared by the consultation tests (not a test file). */

export const EXPERT_PASSWORD = 'Expert2030'

export interface ConsultWorld {
  app: FastifyInstance
  clock: Clock
  logs: string[]
  hospitalId: string
  call: (
    user: TestUser | null,
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    payload?: object,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- read loosely, like json()
  ) => Promise<{ status: number; data: any; error: string | null }>
  /** Moves the clock; the people named get a fresh session (a day-long step outlives a token). */
  advance: (ms: number, ...people: TestUser[]) => Promise<void>
  /** Runs every due job now (timers, refunds) and waits for them. */
  drainJobs: () => Promise<void>
  /** `ledger:check` must hold after every money test. */
  assertLedger: () => Promise<void>
}

export async function consultWorld(
  options: {
    payments?: PaymentProvider | ((now: () => Date) => PaymentProvider)
    /** Overrides of the test configuration (a shared database file or schema, PUBLIC_URL). */
    config?: Partial<Config>
    /**
     * false: this app runs no job (its runner serves no kind); server processes of the test's own
     * take the timers and refunds instead.
     */
    runJobs?: boolean
  } = {},
): Promise<ConsultWorld> {
  const clock = new Clock()
  const logs: string[] = []
  const config = testConfig({ logLevel: 'info', ...options.config })
  const payments =
    typeof options.payments === 'function' ? options.payments(clock.now) : options.payments
  const app = await buildApp(config, {
    now: clock.now,
    logStream: { write: (line) => void logs.push(line) },
    providers: { payments: payments ?? demoPaymentProvider(config.secretKey, clock.now) },
    ...(options.runJobs === false ? { jobKinds: [] } : {}),
  })
  closeAfter(() => app.close())
  await app.ready()
  const hospitalId = `hos-consult-${randomUUID().slice(0, 8)}`
  await insertTestHospital(app.db, {
    id: hospitalId,
    name: '会诊测试医院',
    at: clock.now().toISOString(),
  })
  const call: ConsultWorld['call'] = (user, method, url, payload) =>
    json(app, {
      method,
      url,
      ...(user ? { token: user.token } : {}),
      ...(payload === undefined ? {} : { payload }),
    })
  return {
    app,
    clock,
    logs,
    hospitalId,
    call,
    advance: async (ms, ...people) => {
      clock.advance(ms)
      for (const person of people) {
        person.token = (await createSession(app.db, person.user.id, clock.now())).access_token
      }
    },
    drainJobs: async () => {
      // Until none runs and none is due. A job that calls a provider may take a while on a busy
      // machine: it is waited for up to about 10 s; due jobs nobody takes, for 5 sweeps.
      let idleSweeps = 0
      for (let round = 0; round < 200 && idleSweeps < 5; round += 1) {
        await app.jobs.sweep()
        const running = await app.db
          .selectFrom('ingest_jobs')
          .select('id')
          .where('status', 'in', ['running'])
          .where('kind', 'like', 'consult-%')
          .execute()
        if (running.length === 0) {
          const due = await app.db
            .selectFrom('ingest_jobs')
            .select('id')
            .where('status', '=', 'queued')
            .where('kind', 'like', 'consult-%')
            .where((eb) =>
              eb.or([
                eb('run_after', 'is', null),
                eb('run_after', '<=', clock.now().toISOString()),
              ]),
            )
            .execute()
          if (due.length === 0) return
          idleSweeps += 1
        }
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    assertLedger: async () => {
      const result = await checkLedger(app.db, clock.now())
      assert.deepEqual(result.problems, [], 'ledger:check holds')
    },
  }
}

let sequence = 500

export async function patient(world: ConsultWorld, realName = '王患者'): Promise<TestUser> {
  const user = await signUp(world.app.db, world.clock.now())
  sequence += 1
  const res = await world.call(user, 'POST', '/main/account/idcard', {
    realName,
    idCard: validIdNumber('19800101', sequence),
  })
  assert.equal(res.status, 200, res.error ?? '')
  return user
}

export async function expert(
  world: ConsultWorld,
  fields: { name?: string; dailyLimit?: number; priceFen?: number; followupLimit?: number } = {},
): Promise<TestUser> {
  const user = await signUp(world.app.db, world.clock.now(), {
    role: 'expert',
    password: EXPERT_PASSWORD,
  })
  const at = world.clock.now().toISOString()
  await world.app.db
    .insertInto('experts')
    .values({
      user_id: user.user.id,
      application_id: `direct-${user.user.id}`,
      name: fields.name ?? '李专家',
      hospital_id: world.hospitalId,
      department: '放射科',
      title: 'chief',
      specialities: JSON.stringify(['胸部影像']),
      introduction: '简介',
      certified_at: at,
      updated_at: at,
      suspended_at: null,
      suspended_reason: null,
      suspended_by: null,
      photo_path: null,
      demo: 0,
      ...NEW_EXPERT_SETTINGS,
      ...(fields.dailyLimit ? { daily_limit: fields.dailyLimit } : {}),
      ...(fields.priceFen ? { text_price_fen: fields.priceFen } : {}),
      ...(fields.followupLimit === undefined ? {} : { followup_limit: fields.followupLimit }),
    })
    .execute()
  return user
}

export async function application(
  world: ConsultWorld,
  asker: TestUser,
  expertUser: TestUser,
  service: 'text' | 'imaging' = 'text',
) {
  const exam = await insertUploadExam(world.app.db, asker.user.id, { title: '胸部 CT' })
  const quote = await world.call(
    asker,
    'GET',
    `/main/consultations/quote?expertId=${expertUser.user.id}&service=${service}`,
  )
  assert.equal(quote.status, 200, quote.error ?? '')
  return {
    exam,
    quote: quote.data,
    input: {
      expertId: expertUser.user.id,
      service,
      chiefComplaint: '咳嗽两周，体检发现肺结节',
      presentIllness: '无发热',
      pastHistory: '无',
      allergies: '无',
      questions: '结节需要手术吗？多久复查？',
      seenOffline: true,
      offlinePictureIds: [],
      examIds: [exam.id],
      reportIds: [],
      externalExams: [],
      priceFen: quote.data.priceFen as number,
      consent: { accepted: true, version: CONSULT_CONSENT_VERSION },
    },
  }
}

/** Submits and pays with 演示支付: a consultation waiting for the expert. */
export async function paidConsultation(
  world: ConsultWorld,
  asker: TestUser,
  expertUser: TestUser,
  service: 'text' | 'imaging' = 'text',
) {
  const { input } = await application(world, asker, expertUser, service)
  const created = await world.call(asker, 'POST', '/main/consultations', input)
  assert.equal(created.status, 200, created.error ?? '')
  const id = created.data.id as string
  const pay = await world.call(asker, 'POST', `/main/consultations/${id}/pay`, { client: 'h5' })
  assert.equal(pay.status, 200, pay.error ?? '')
  const paid = await world.call(asker, 'POST', `/main/consultations/${id}/demo-pay`, {
    token: pay.data.demoToken,
  })
  assert.equal(paid.status, 200, paid.error ?? '')
  assert.equal(paid.data.state, 'waiting-accept')
  return id
}

/** Paid, accepted and answered (signed): a consultation in 已回复, open for follow-ups. */
export async function answeredConsultation(
  world: ConsultWorld,
  asker: TestUser,
  expertUser: TestUser,
) {
  const id = await paidConsultation(world, asker, expertUser)
  const accepted = await world.call(expertUser, 'POST', `/main/expert/consultations/${id}/accept`)
  assert.equal(accepted.status, 200, accepted.error ?? '')
  const reply = await world.call(expertUser, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: `a-${id.slice(0, 8)}`,
    opinion: '考虑良性可能大，建议定期复查',
    password: EXPERT_PASSWORD,
  })
  assert.equal(reply.status, 200, reply.error ?? '')
  return id
}
