import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify'
import type { Config } from './config'
import { createFieldCipher, type FieldCipher } from './crypto/field-cipher'
import { loadJpegEncoder } from './dicom/codecs'
import { createDatabase, type DatabaseHandle, type DB } from './db'
import { honourSubscribeConsent } from './domain/consents'
import { startPurgeSchedule } from './domain/retention'
import type { JobKind, JobRunner } from './jobs/runner'
import { createAppJobRunner, prepareDatabase } from './domain/startup'
import { appJobKinds } from './job-kinds'
import { consultContext } from './consult-context'
import { dataExportContext } from './data-export-context'
import { walletContext } from './wallet-context'
import {
  findSessionByAccessToken,
  setPasswordHashCost,
  setSecretKey,
  toRole,
} from './domain/identity'
import { trustProxyOption } from './http/client-address'
import { serializerCompiler } from './http/serializer'
import { validatorCompiler } from './http/validation'
import { registerApiDocs } from './plugins/api-docs'
import { registerCompression } from './plugins/compression'
import {
  clientErrorHandler,
  frameworkErrorHandler,
  registerErrorHandler,
} from './plugins/error-handler'
import { genReqId, registerSecurityHeaders } from './plugins/security'
import { registerWeb } from './plugins/web'
import { createProviders, type Providers } from './providers'
import { createRealtime, type Realtime, type RealtimeSocketOptions } from './realtime'
import routes from './routes'
import { createObjectStore, type ObjectStore } from './storage'
import { createSteppableClock, type SteppableClock } from './test-clock'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    /** The database handle (kind, ping, migrate); most code only needs `db`. */
    database: DatabaseHandle
    /** Kysely over the configured database: pass it to the domain modules. */
    db: DB
    /** The clock every request handler uses; tests inject one to step over expiries. */
    now: () => Date
    /** Outside services (SMS, WeChat login) behind interfaces; see src/providers. */
    providers: Providers
    /** Files (DICOM instances, decoded frames, photos): local disk or S3, see src/storage. */
    store: ObjectStore
    /** Encrypts and digests personal fields (ID numbers, names, phones) under ID_CARD_KEY. */
    personalCipher: FieldCipher
    /** The e2e suite's steppable clock (TEST_CLOCK=1 in a loopback demo), else null. */
    testClock: SteppableClock | null
    /** Ingest jobs (STOW-RS, zip uploads): enqueueJob/waitForJob in jobs/runner. */
    jobs: JobRunner
    /**
     * Live delivery (src/realtime): `publish(userIds, event)` after a commit reaches the users'
     * sockets on every process; the WebSocket route (/main/ws) listens on it.
     */
    realtime: Realtime
  }
}

export interface BuildOptions {
  /** Use this database instead of opening the configured one (it is still migrated and seeded). */
  database?: DatabaseHandle
  /** Where the JSON log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void }
  /** A clock instead of the system's (tests of expiry and rate limits). */
  now?: () => Date
  /** Replace some providers (tests use a fake WeChat exchange). */
  providers?: Partial<Providers>
  /** Use this object store instead of the configured one (tests of the S3 adapter, crash tests). */
  store?: ObjectStore
  /** The job kinds the runner serves instead of JOB_KINDS (the runner's tests add their own). */
  jobKinds?: readonly JobKind[]
  /** The WebSocket's timers and limits (tests shorten the auth wait and the session check). */
  realtimeSocket?: Partial<RealtimeSocketOptions>
  /** Reconnect delays of the realtime LISTEN connection (tests of a dropped connection). */
  realtimeReconnectDelaysMs?: readonly number[]
}

/**
 * HTTP timeouts, set explicitly: Fastify's defaults put no limit on a request's duration and none on
 * an idle socket, and leave the headers to Node's 60 s, checked every 30 s.
 */
export const HTTP_TIMEOUTS = {
  /**
   * A request's headers must be complete within this from its first byte: a slowloris client
   * sending them a byte at a time holds a socket otherwise. Headers fit in one packet; 15 s is many
   * round trips of a poor mobile network. An idle keep-alive connection is not counted.
   */
  headersMs: 15_000,
  /** The whole request, body included: a 4 MB upload chunk at about 128 kbit/s still arrives. */
  requestMs: 300_000,
  /**
   * An idle keep-alive connection closes after this: longer than a balancer's usual 60 s, so the
   * balancer, not the server, ends an idle connection and never sends a request into one closing.
   */
  keepAliveMs: 72_000,
  /** A socket without traffic either way for this long is closed (a client that vanished). */
  connectionMs: 120_000,
  /** How often Node checks the two deadlines above (its default, 30 s, would stretch 15 s to 45 s). */
  checkIntervalMs: 2_000,
} as const

/** JSON bodies above this are refused; file uploads get their own limits on their own routes. */
export const BODY_LIMIT = 1024 * 1024

/**
 * Builds the whole service: database (migrated and seeded), plugins, routes and the H5 app. Not yet
 * listening, and not yet `ready`, so tests may add routes before the first `inject`. Closing the app
 * closes the database.
 */
export async function buildApp(
  config: Config,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      ...loggerOptions(config),
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    genReqId,
    bodyLimit: BODY_LIMIT,
    connectionTimeout: HTTP_TIMEOUTS.connectionMs,
    keepAliveTimeout: HTTP_TIMEOUTS.keepAliveMs,
    requestTimeout: HTTP_TIMEOUTS.requestMs,
    http: {
      headersTimeout: HTTP_TIMEOUTS.headersMs,
      requestTimeout: HTTP_TIMEOUTS.requestMs,
      connectionsCheckingInterval: HTTP_TIMEOUTS.checkIntervalMs,
    },
    trustProxy: trustProxyOption(config.trustProxy),
    // Errors before routing and requests Node cannot parse: the envelope in Chinese, with the
    // security headers, instead of Fastify's English JSON.
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
  })
  // The apps put Content-Type: application/json on every call (wx.request by default, the H5
  // wrapper too), a DELETE without a body included, which Fastify refuses as an empty JSON body.
  // A bodyless DELETE or GET is read as having no body; an empty POST/PUT is still refused.
  const json = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '' && (request.method === 'DELETE' || request.method === 'GET')) {
      done(null, undefined)
    } else json(request, body as string, done)
  })
  // One server secret per process (keyed hashes of codes, phones and addresses).
  setSecretKey(config.secretKey)
  // The production argon2 cost unless a test's configuration asked for the cheap one (config.ts).
  setPasswordHashCost(config.testPasswordHash ? 'test' : 'production')

  const database = options.database ?? createDatabase(config.database)
  app.decorate('config', config)
  app.decorate('database', database)
  app.decorate('db', database.db)
  const steppable = !options.now && config.testClock ? createSteppableClock() : null
  const now = options.now ?? steppable?.now ?? (() => new Date())
  app.decorate('now', now)
  app.decorate('testClock', steppable)
  // http/auth.ts asks who holds an access token; identity answers (http/ imports no domain module).
  app.decorate('findSessionUser', async (token: string) => {
    const found = await findSessionByAccessToken(database.db, token, now())
    if (!found) return undefined
    const { user, sessionId, idCard, certifiedExpert } = found
    return { id: user.id, role: toRole(user.role), sessionId, idCard, certifiedExpert }
  })
  const providers = { ...createProviders(config, database.db, app.log, now), ...options.providers }
  // A person who withdrew subscribe messages (隐私与授权) is sent none, whichever adapter is set.
  providers.subscribe = honourSubscribeConsent(database.db, providers.subscribe)
  app.decorate('providers', providers)
  // Expired codes, counters and sessions go on a schedule; stopped before the database closes.
  app.decorate('store', options.store ?? createObjectStore(config.storage, config.uploadDir))
  app.decorate('personalCipher', createFieldCipher(config.idCardKey))
  // Fastify runs onClose hooks last-registered first: the database, registered first, closes after
  // everything registered below (the purge timer, the job runner) has stopped.
  app.addHook('onClose', async () => database.destroy())
  const stopPurge = startPurgeSchedule(database.db, app.log, now, undefined, app.store)
  app.addHook('onClose', stopPurge)
  // The realtime bus (its own LISTEN connection on PostgreSQL) closes before the database.
  const realtime = createRealtime(database, {
    config: config.database,
    log: app.log,
    ...(options.realtimeSocket ? { socket: options.realtimeSocket } : {}),
    ...(options.realtimeReconnectDelaysMs
      ? { reconnectDelaysMs: options.realtimeReconnectDelaysMs }
      : {}),
  })
  app.decorate('realtime', realtime)
  app.addHook('onClose', () => realtime.close())
  // Jobs start once the app is ready and stop before the
  // database closes; on PostgreSQL they are shared with the other processes through pg-boss.
  const jobs = createAppJobRunner(config, database, {
    kinds:
      options.jobKinds ??
      appJobKinds(
        (log) => ({ ...consultContext(app), log }),
        (log) => ({ ...walletContext(app), log }),
        () => app.providers.ai,
        () => dataExportContext(app),
      ),
    store: app.store,
    cipher: app.personalCipher,
    log: app.log,
    now,
  })
  app.decorate('jobs', jobs)
  app.addHook('onReady', () => jobs.start())
  app.addHook('onClose', () => jobs.stop())
  // Hospital studies' thumbnails render on first view: the JPEG encoder (WASM; a first render with
  // its load took 630–1330 ms under load, 240 ms idle, 110 ms without) is loaded in the background
  // once the server listens. Never awaited, never failing the start (a failure is logged; the first
  // render then loads it).
  app.addHook('onListen', async () => {
    const started = performance.now()
    void loadJpegEncoder().then(
      () => app.log.info({ ms: Math.round(performance.now() - started) }, 'JPEG encoder loaded'),
      (error: unknown) => app.log.warn({ err: error }, 'JPEG encoder could not be preloaded'),
    )
  })

  try {
    app.log.info(
      await prepareDatabase(config, database, app.store, now, app.personalCipher),
      'database ready',
    )
  } catch (error) {
    await app.close()
    throw error
  }

  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  registerErrorHandler(app)
  registerSecurityHeaders(app)

  // External plugins, then our routes, then the web app and its catch-all (as in fastify/demo).
  await registerCompression(app)
  await registerApiDocs(app, config)
  await app.register(routes)
  await registerWeb(app, config.webRoot)

  return app
}

/**
 * Structured JSON logs without personal data: the request line is logged without its query string
 * (GET calls carry their data there), headers are not logged at all, and credentials are redacted
 * should anything log them explicitly.
 */
function loggerOptions(
  config: Config,
): Exclude<FastifyServerOptions['logger'], boolean | undefined> {
  return {
    level: config.logLevel,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'res.headers["set-cookie"]',
        '*.password',
        '*.access_token',
        '*.refresh_token',
      ],
      censor: '[redacted]',
    },
    serializers: {
      req: (request: { method: string; url: string }) => ({
        method: request.method,
        url: request.url.split('?')[0],
      }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
    },
  }
}
