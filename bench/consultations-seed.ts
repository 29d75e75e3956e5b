/**
 * The consultations bench's world (bench/consultations.ts), written through the domain's own
 * operations so the rows are exactly what real use writes: certified experts (written straight into
 * the database, marked demo, like bench/experts.ts), patients with a bound ID card (bindIdCard), and
 * for each conversation createConsultation → startPayment → confirmDemoPayment (演示支付, the
 * ledger's transfers included) → acceptConsultation. Every conversation ends 进行中 (in-progress).
 *
 * Shape (defaults): 5 experts with 100 conversations each (患者咨询 进行中: 10 pages); 10 "regular"
 * patients with 20 each, 4 with every expert (我的咨询 进行中: 2 pages); 300 patients with one each.
 * 500 open conversations, 315 people.
 */
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import Fastify from 'fastify'
import { CONSULT_CONSENT_VERSION } from '../contract/main/consultations'
import type { Config } from '../server/src/config'
import { createFieldCipher } from '../server/src/crypto/field-cipher'
import { createDatabase } from '../server/src/db'
import {
  acceptConsultation,
  type ConsultContext,
  confirmDemoPayment,
  createConsultation,
  startPayment,
} from '../server/src/domain/consultations'
import { NEW_EXPERT_SETTINGS } from '../server/src/domain/experts/settings'
import { createSession, createUser, setSecretKey } from '../server/src/domain/identity'
import { checkLedger } from '../server/src/domain/ledger'
import { bindIdCard } from '../server/src/domain/profile'
import { demoPaymentProvider } from '../server/src/providers/payments/demo'
import { unconfiguredSubscribeMessages } from '../server/src/providers/subscribe-message'

export interface SeedShape {
  experts: number
  /** Patients with `perRegular` conversations each, spread evenly over the experts. */
  regulars: number
  perRegular: number
  /** Patients with one conversation each, round the experts. */
  singles: number
}

export const DEFAULT_SHAPE: SeedShape = { experts: 5, regulars: 10, perRegular: 20, singles: 300 }

export interface Person {
  id: string
  token: string
}

export interface Conversation {
  id: string
  patient: Person
  expert: Person
}

export interface SeededWorld {
  experts: Person[]
  regulars: Person[]
  patients: Person[]
  conversations: Conversation[]
  seedMs: number
}

/** A GB 11643 number that passes the checks: region, birth date, sequence, check digit. */
function idNumber(n: number): string {
  const birth = new Date(Date.UTC(1950, 0, 1) + (n % 15_000) * 86_400_000)
  const ymd = birth.toISOString().slice(0, 10).replaceAll('-', '')
  const first17 = `110105${ymd}${String(Math.floor(n / 15_000) + 100).padStart(3, '0')}`
  const weights = [7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2]
  const sum = [...first17].reduce((acc, digit, i) => acc + Number(digit) * weights[i]!, 0)
  return `${first17}${'10X98765432'[sum % 11]}`
}

const SURNAMES = [...'王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗']
const GIVEN = ['建国', '志强', '秀英', '海燕', '文博', '晓明', '丽华', '国栋', '静怡', '子豪']

/** Runs `work` on every item, `width` at a time. */
async function inPool<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>) {
  let next = 0
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[(next += 1) - 1]!)
    }),
  )
}

/**
 * Writes the world into the database `config` names (the servers' own configuration, so the cipher
 * and the demo payment key are theirs). `width` conversations are made at once (1 on SQLite: one
 * writer). Ends with the ledger's check (checkLedger, what `npm run ledger:check` runs): throws if
 * any invariant fails, so a figure is never measured on an inconsistent seed.
 */
export async function seedConsultations(
  config: Config,
  shape: SeedShape = DEFAULT_SHAPE,
  width = 8,
): Promise<SeededWorld> {
  const started = performance.now()
  // What app.ts does at start: the keyed hashes use the server's secret.
  setSecretKey(config.secretKey)
  const database = createDatabase(config.database)
  const db = database.db
  const log = Fastify({ logger: false }).log
  const ctx: ConsultContext = {
    db,
    cipher: createFieldCipher(config.idCardKey),
    now: () => new Date(),
    payments: demoPaymentProvider(config.secretKey),
    subscribe: unconfiguredSubscribeMessages(log),
    log,
    // Timers go in as queued rows; the servers' sweep takes them when due (none is, in a bench).
    jobs: null,
    notifyUrls: null,
    // The servers' sockets are not open yet: nothing to tell.
    publish: () => {},
  }
  try {
    const now = new Date()
    const at = now.toISOString()
    const hospitalId = `bench-consult-hospital-${randomUUID().slice(0, 8)}`
    await db
      .insertInto('hospitals')
      .values({
        id: hospitalId,
        name: '咨询压测示范医院（演示）',
        level: '三级甲等',
        province: '北京市',
        city: '北京市',
        address: '北京市测试路 1 号（演示数据）',
        sort_order: 999,
        created_at: at,
        region_code: null,
        region_name: null,
        ai_reporting: 0,
        demo: 1,
      })
      .execute()

    const experts: Person[] = []
    for (let i = 0; i < shape.experts; i += 1) {
      const user = await createUser(db, { now, role: 'expert', nickname: '演示专家' })
      await db
        .insertInto('experts')
        .values({
          user_id: user.id,
          application_id: `bench-${user.id}`,
          name: `${SURNAMES[i % SURNAMES.length]}${GIVEN[i % GIVEN.length]}`,
          hospital_id: hospitalId,
          department: '放射科',
          title: 'chief',
          specialities: JSON.stringify(['胸部影像']),
          introduction: '演示专家，非真实医生。',
          certified_at: at,
          updated_at: at,
          suspended_at: null,
          suspended_reason: null,
          suspended_by: null,
          photo_path: null,
          demo: 1,
          ...NEW_EXPERT_SETTINGS,
          // Room for the whole world in one day.
          daily_limit: shape.regulars * shape.perRegular + shape.singles,
        })
        .execute()
      experts.push({ id: user.id, token: (await createSession(db, user.id, now)).access_token })
    }

    const patients: Person[] = []
    const people = Array.from({ length: shape.regulars + shape.singles }, (_, i) => i)
    await inPool(people, width, async (n) => {
      const user = await createUser(db, { now, nickname: `压测患者${n}` })
      await bindIdCard(
        db,
        ctx.cipher,
        user.id,
        {
          realName: `${SURNAMES[n % SURNAMES.length]}${GIVEN[(n * 7) % GIVEN.length]}`,
          idCard: idNumber(n),
        },
        now,
      )
      patients[n] = { id: user.id, token: (await createSession(db, user.id, now)).access_token }
    })
    const regulars = patients.slice(0, shape.regulars)

    // Interleaved, so an expert's page holds several patients (the cards read each asker's people).
    const pairs: [Person, Person][] = []
    for (let k = 0; k < shape.perRegular; k += 1) {
      for (const [r, patient] of regulars.entries())
        pairs.push([patient, experts[(r + k) % experts.length]!])
    }
    for (let s = 0; s < shape.singles; s += 1)
      pairs.push([patients[shape.regulars + s]!, experts[s % experts.length]!])

    const price = NEW_EXPERT_SETTINGS.text_price_fen
    const conversations: Conversation[] = []
    await inPool(pairs, width, async ([patient, expert]) => {
      const created = await createConsultation(ctx, patient.id, {
        expertId: expert.id,
        service: 'text',
        chiefComplaint: '体检发现肺部小结节 1 个月',
        presentIllness: '无发热、咯血',
        pastHistory: '无',
        allergies: '无',
        questions: '这个结节需要手术吗？多久复查一次？',
        seenOffline: true,
        offlinePictureIds: [],
        examIds: [],
        reportIds: [],
        externalExams: [
          { hospital: '示范医院', date: '2025-01-02', type: '胸部 CT', pictureIds: [] },
        ],
        priceFen: price,
        consent: { accepted: true, version: CONSULT_CONSENT_VERSION },
      })
      const pay = await startPayment(ctx, patient.id, created.id, 'h5')
      await confirmDemoPayment(ctx, patient.id, created.id, pay.demoToken ?? '')
      await acceptConsultation(ctx, expert.id, created.id)
      conversations.push({ id: created.id, patient, expert })
    })

    const ledger = await checkLedger(db, new Date())
    if (!ledger.ok)
      throw new Error(`ledger check failed after the seed:\n${ledger.problems.join('\n')}`)
    return { experts, regulars, patients, conversations, seedMs: performance.now() - started }
  } finally {
    await database.destroy()
  }
}
