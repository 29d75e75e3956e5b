import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import type { Config } from '../../src/config'
import { ACCOUNTS, postTransfer } from '../../src/domain/ledger'
import { setWalletLimits, type WalletLimits } from '../../src/domain/wallet/settings'
import type { WalletContext } from '../../src/domain/wallet'
import type { TransferProvider } from '../../src/providers/transfers'
import { walletContext } from '../../src/wallet-context'
import { signUp, type TestUser, validIdNumber } from '../domain/profile/support'
import {
  type ConsultWorld,
  consultWorld,
  EXPERT_PASSWORD,
  expert,
  paidConsultation,
} from '../consultations/support'

/** Shared by the wallet tests (not a test file). */

export { EXPERT_PASSWORD }

export interface WalletWorld extends ConsultWorld {
  operator: TestUser
  /** The wallet's context as the routes make it (the app's providers, clock and database). */
  wallet: () => WalletContext
  /** Replaces the transfer provider (a wrapper of the demo's that answers unclearly, ...). */
  useTransfers: (wrap: (demo: TransferProvider) => TransferProvider) => void
  /** Runs every due wallet job now and waits for them. */
  drainWallet: () => Promise<void>
  setLimits: (limits: Partial<WalletLimits>) => Promise<void>
}

export async function walletWorld(
  options: { config?: Partial<Config>; runJobs?: boolean } = {},
): Promise<WalletWorld> {
  const world = await consultWorld({
    ...(options.config ? { config: options.config } : {}),
    ...(options.runJobs === false ? { runJobs: false } : {}),
  })
  const operator = await signUp(world.app.db, world.clock.now(), { role: 'operator' })
  const demo = world.app.providers.transfers
  return {
    ...world,
    operator,
    wallet: () => walletContext(world.app),
    useTransfers: (wrap) => {
      world.app.providers.transfers = wrap(demo)
    },
    drainWallet: async () => {
      for (let round = 0; round < 20; round += 1) {
        await world.app.jobs.sweep()
        const busy = await world.app.db
          .selectFrom('ingest_jobs')
          .select('id')
          .where('kind', '=', 'wallet-transfer')
          .where((eb) =>
            eb.or([
              eb('status', '=', 'running'),
              eb.and([
                eb('status', '=', 'queued'),
                eb.or([
                  eb('run_after', 'is', null),
                  eb('run_after', '<=', world.clock.now().toISOString()),
                ]),
              ]),
            ]),
          )
          .execute()
        if (busy.length === 0) return
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
      assert.fail('wallet jobs still running after 20 sweeps')
    },
    setLimits: async (limits) => {
      await setWalletLimits(world.app.db, limits, null, world.clock.now())
    },
  }
}

let sequence = 900

/** A certified expert with a bound ID card (the payout's real name) and a password. */
export async function walletExpert(world: ConsultWorld, name = '李专家'): Promise<TestUser> {
  const user = await expert(world, { name })
  sequence += 1
  const bound = await world.call(user, 'POST', '/main/account/idcard', {
    realName: name,
    idCard: validIdNumber('19750505', sequence),
  })
  assert.equal(bound.status, 200, bound.error ?? '')
  return user
}

/**
 * Settled income for an expert, posted the way the consultations' money does (payment → the
 * expert's pending income → available), without a consultation.
 */
export async function creditIncome(world: ConsultWorld, userId: string, fen: number) {
  const key = randomUUID()
  const now = world.clock.now()
  await world.app.db.transaction().execute(async (trx) => {
    await postTransfer(
      trx,
      {
        eventKey: `test-income:${key}`,
        kind: 'completion',
        entries: [
          { account: ACCOUNTS.provider('demo'), amount: -fen },
          { account: ACCOUNTS.expertPending(userId), amount: fen },
        ],
      },
      now,
    )
    await postTransfer(
      trx,
      {
        eventKey: `test-settle:${key}`,
        kind: 'settlement',
        entries: [
          { account: ACCOUNTS.expertPending(userId), amount: -fen },
          { account: ACCOUNTS.expertAvailable(userId), amount: fen },
        ],
      },
      now,
    )
  })
}

let clientSeq = 0
export const clientId = () =>
  `client-${process.pid}-${(clientSeq += 1)}-${randomUUID().slice(0, 8)}`

export function withdraw(
  world: ConsultWorld,
  user: TestUser,
  amount: string,
  extra: { clientId?: string; password?: string; smsCode?: string } = {},
) {
  return world.call(user, 'POST', '/main/wallet/withdrawals', {
    amount,
    clientId: extra.clientId ?? clientId(),
    ...(extra.smsCode
      ? { smsCode: extra.smsCode }
      : { password: extra.password ?? EXPERT_PASSWORD }),
  })
}

export async function balances(world: ConsultWorld, user: TestUser) {
  const res = await world.call(user, 'GET', '/main/wallet')
  assert.equal(res.status, 200, res.error ?? '')
  return res.data as {
    availableFen: number
    pendingFen: number
    withdrawingFen: number
    monthIncomeFen: number
    totalIncomeFen: number
    yearTaxFen: number
    limits: { leftTodayFen: number }
  }
}

/** A consultation paid, accepted, answered (signed) and adopted: the expert's income is pending. */
export async function adoptedConsultation(world: WalletWorld, asker: TestUser, doctor: TestUser) {
  const id = await paidConsultation(world, asker, doctor)
  assert.equal(
    (await world.call(doctor, 'POST', `/main/expert/consultations/${id}/accept`)).status,
    200,
  )
  const reply = await world.call(doctor, 'POST', `/main/expert/consultations/${id}/answer`, {
    clientId: `answer-${id.slice(0, 8)}`,
    opinion: '考虑良性可能大，建议定期复查',
    password: EXPERT_PASSWORD,
  })
  assert.equal(reply.status, 200, reply.error ?? '')
  assert.equal((await world.call(asker, 'POST', `/main/consultations/${id}/adopt`)).status, 200)
  return id
}

/**
 * Withdraws through the 演示提现 provider to its end, as the expert's app does (刷新, 确认收款, 刷新):
 * paid, or failed for an amount ending in .44.
 */
export async function withdrawToTheEnd(world: WalletWorld, doctor: TestUser, amount: string) {
  const made = await withdraw(world, doctor, amount)
  assert.equal(made.status, 200, made.error ?? '')
  await world.advance(2_500)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/confirm`)
  await world.advance(3_500)
  const ended = await world.call(doctor, 'POST', `/main/wallet/withdrawals/${made.data.id}/sync`)
  return ended.data as { id: string; state: string; taxFen: number; billNo: string }
}

/** The wallet's 我的消息 entries of an expert: title and body. */
export const walletMessages = async (world: WalletWorld, userId: string) =>
  (
    await world.app.db
      .selectFrom('messages')
      .select(['title', 'body', 'kind', 'link'])
      .where('user_id', '=', userId)
      .where('title', 'like', '提现%')
      .orderBy('created_at')
      .execute()
  ).map((row) => ({ ...row, link: row.link ? JSON.parse(row.link) : null }))
