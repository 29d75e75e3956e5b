import type { FastifyInstance } from 'fastify'
import { buildApp } from './app'
import { ConfigError, isLoopbackHost, loadConfig, type Config } from './config'
import { DEMO_ARTICLES } from './domain/content/demo/articles'
import { DEMO_VIDEOS, seedDemoContent } from './domain/content/demo/seed'
import { seedDemoRecords } from './domain/demo-records/seed'
import { DEMO_EXPERTS, seedDemoExperts } from './domain/experts'
import { DEMO_CONSULTATIONS_MARKER, seedDemoConsultations } from './domain/consultations'
import { seedDemoWallet } from './domain/wallet'
import { consultContext } from './consult-context'

/** How long in-flight requests get to finish after a stop signal before the process exits anyway. */
const SHUTDOWN_GRACE_MS = 10_000

async function main(): Promise<void> {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  let app: FastifyInstance
  try {
    app = await buildApp(config)
  } catch (error) {
    console.error(`服务启动失败：无法准备数据库（${describe(error)}）`)
    process.exit(1)
  }

  let stopping = false
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return
    stopping = true
    app.log.info({ signal }, 'shutting down')
    const force = setTimeout(() => {
      app.log.error('shutdown timed out, exiting')
      process.exit(1)
    }, SHUTDOWN_GRACE_MS)
    force.unref()
    // close() stops accepting connections, lets in-flight requests finish, then runs the onClose
    // hooks, the last of which closes the database.
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)

  try {
    await app.listen({ host: config.host, port: config.port })
    // One human line for a newcomer, on stderr so stdout stays pure JSON logs for collectors.
    const mode = config.demoMode ? '演示模式' : '生产模式'
    process.stderr.write(
      `医影通已启动（${mode}）：http://${config.host}:${config.port}  接口文档：/api-docs\n`,
    )
    if (config.demoMode) void pushDemoRecords(app)
    if (config.demoMode && !isLoopbackHost(config.host)) {
      process.stderr.write(
        '注意：演示模式已按 DEMO_MODE=1 对其他设备开放，演示账号密码公开、验证码可被读取，请勿用于真实用户\n',
      )
    }
  } catch (error) {
    app.log.error({ err: error }, 'listen failed')
    console.error(`服务启动失败：无法监听 ${config.host}:${config.port}（${describe(error)}）`)
    await app.close().catch(() => undefined)
    process.exit(1)
  }
}

/**
 * Demo articles and videos are written first (a few rows and files), then the demo experts (they
 * need the cipher, which seed.ts's steps have not). The demo patient's studies
 * and reports go through the server's own STOW-RS and FHIR routes, after
 * it listens (a first start stays quick; the records follow a few seconds later). A failure leaves
 * the demo without records, not down.
 */
async function pushDemoRecords(app: FastifyInstance): Promise<void> {
  try {
    if (app.config.demoMode && (await seedDemoContent(app.db, app.store, app.now()))) {
      process.stderr.write(
        `演示数据：已写入 ${DEMO_ARTICLES.length} 篇演示文章、${DEMO_VIDEOS.length} 个演示视频\n`,
      )
    }
  } catch (error) {
    app.log.error({ err: error }, 'demo content could not be written')
  }
  try {
    if (
      app.config.demoMode &&
      (await seedDemoExperts(app.db, app.personalCipher, app.store, app.now()))
    ) {
      process.stderr.write(
        `演示数据：演示专家账号已认证，另有 ${DEMO_EXPERTS.length} 位演示专家和 1 份待审核的认证申请\n`,
      )
    }
  } catch (error) {
    app.log.error({ err: error }, 'demo experts could not be written')
  }
  try {
    const demo = await seedDemoRecords(app)
    if (demo.ran) {
      app.log.info(demo, 'demo records pushed')
      process.stderr.write(
        `演示数据：已为演示患者推送 ${demo.studies} 个检查、${demo.reports} 份报告\n`,
      )
    }
  } catch (error) {
    app.log.error({ err: error }, 'demo records could not be pushed')
  }
  // The demo patient's consultations go through the real flow once the demo CT is stored.
  try {
    for (let attempt = 0; attempt < 60; attempt += 1) {
      if (await seedDemoConsultations(consultContext(app))) {
        process.stderr.write('演示数据：演示患者已有 3 个咨询（已完成、待接诊、已退款）\n')
        break
      }
      const marked = await app.db
        .selectFrom('seed_runs')
        .select('name')
        .where('name', '=', DEMO_CONSULTATIONS_MARKER)
        .executeTakeFirst()
      if (marked) break
      await new Promise((resolve) => setTimeout(resolve, 2000))
    }
  } catch (error) {
    app.log.error({ err: error }, 'demo consultations could not be written')
  }
  // The demo expert's wallet: settled income from consultations through the same flow.
  try {
    if (await seedDemoWallet(consultContext(app))) {
      process.stderr.write('演示数据：演示专家钱包已有 ¥2,400.00 可提现收入\n')
    }
  } catch (error) {
    app.log.error({ err: error }, 'demo wallet could not be written')
  }
}

function describe(error: unknown): string {
  if (error instanceof Error)
    return 'code' in error && error.code ? String(error.code) : error.message
  return String(error)
}

void main()
