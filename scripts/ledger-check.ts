/**
 * `npm run ledger:check`: the ledger's invariants on the configured database (DATABASE_URL, SQLite
 * or PostgreSQL): every transfer sums to zero, every balance equals the sum of its entries, no
 * account that must not go negative did, an ended consultation's escrow is zero, no refund exceeds
 * what was paid; the wallet's withdrawals (tax + net = gross, paid exactly once, a finished one's
 * hold zero) and each difference the last 对账 of a day found between the transfer provider's
 * statement and our withdrawals. Prints what it looked at and each problem; exit code 1 when any.
 * The result is kept for the operators' page (运营后台 → 咨询订单 → 账本核对).
 */
import { ConfigError, loadConfig } from '../server/src/config'
import { createDatabase } from '../server/src/db'
import { runAndRecordLedgerCheck } from '../server/src/domain/ledger'

async function main(): Promise<number> {
  let config
  try {
    config = loadConfig(process.env)
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      return 2
    }
    throw error
  }
  const database = createDatabase(config.database)
  try {
    await database.migrate()
    const result = await runAndRecordLedgerCheck(database.db, new Date())
    const { transfers, accounts, entries } = result.counted
    console.log(
      `账本核对（${config.database.kind}）：${transfers} 笔转账，${accounts} 个账户，${entries} 条分录`,
    )
    for (const problem of result.problems) console.log(`  ✗ ${problem}`)
    console.log(
      result.ok ? '✓ 账本平衡，所有不变量成立' : `✗ 发现 ${result.problems.length} 个问题`,
    )
    return result.ok ? 0 : 1
  } finally {
    await database.destroy()
  }
}

main().then(
  (code) => {
    process.exitCode = code
  },
  (error: unknown) => {
    console.error(error)
    process.exitCode = 1
  },
)
