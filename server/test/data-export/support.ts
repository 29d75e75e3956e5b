import assert from 'node:assert/strict'
import { Readable } from 'node:stream'
import Ajv from 'ajv'
import draft06 from 'ajv/lib/refs/json-schema-draft-06.json'
import yauzl from 'yauzl'
import { waitForJob } from '../../src/jobs/runner'
import { readOutbox } from '../../src/providers/sms'
import type { ConsultWorld } from '../consultations/support'
import { signUp, type TestUser, validIdNumber } from '../domain/profile/support'
import fhirSchema from './fhir/fhir-r4-subset.schema.json'

/** Shared by the data export tests (not a test file). */

export const PASSWORD = 'Export2030'
let sequence = 700

/** A patient with a password and a bound ID card (name and number returned for hospital exams). */
export async function person(
  world: ConsultWorld,
  realName = '赵导出',
): Promise<TestUser & { idNumber: string; realName: string }> {
  const user = await signUp(world.app.db, world.clock.now(), { password: PASSWORD })
  sequence += 1
  const idNumber = validIdNumber('19800101', sequence)
  const res = await world.call(user, 'POST', '/main/account/idcard', { realName, idCard: idNumber })
  assert.equal(res.status, 200, res.error ?? '')
  return { ...user, idNumber, realName }
}

/** Runs the export's job to its end (the sweep takes it; waits for the row to be final). */
export async function finishExport(world: ConsultWorld, exportId: string) {
  const row = await world.app.db
    .selectFrom('data_exports')
    .select('job_id')
    .where('id', '=', exportId)
    .executeTakeFirstOrThrow()
  await world.app.jobs.sweep()
  const job = await waitForJob(world.app.jobs, row.job_id!, { timeoutMs: 60_000 })
  assert.ok(job && ['done', 'failed'].includes(job.status), `job ended: ${job?.status}`)
  return world.app.db
    .selectFrom('data_exports')
    .selectAll()
    .where('id', '=', exportId)
    .executeTakeFirstOrThrow()
}

/** The token of the last link the outbox sent to `mobile`. */
export async function linkToken(world: ConsultWorld, mobile: string): Promise<string> {
  const notices = await readOutbox(world.app.db, mobile, { purposes: ['notice'] })
  const text = notices.at(-1)?.code ?? ''
  const match = /\/main\/data-exports\/download\?token=([A-Za-z0-9_-]+)/.exec(text)
  assert.ok(match, `a link in the SMS: ${text}`)
  return match[1]!
}

/** A zip's entries, read whole (tests only: small archives). */
export async function unzip(bytes: Buffer): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, file) =>
      error ? reject(error) : resolve(file),
    ),
  )
  const entries = new Map<string, Buffer>()
  await new Promise<void>((resolve, reject) => {
    zip.on('entry', (entry: yauzl.Entry) => {
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error)
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          entries.set(entry.fileName, Buffer.concat(chunks))
          zip.readEntry()
        })
        stream.on('error', reject)
      })
    })
    zip.on('end', () => resolve())
    zip.on('error', reject)
    zip.readEntry()
  })
  return entries
}

export async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const chunk of body) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/**
 * Validates against the official FHIR R4 JSON schema (the definitions the export writes, closed
 * over $ref: fhir/fhir-r4-subset.schema.json says where it comes from). Answers the errors.
 */
export function r4Errors(resource: unknown): string[] {
  validator ??= makeValidator()
  if (validator(resource)) return []
  return (validator.errors ?? []).map((e) => `${e.dataPath} ${e.message ?? ''}`)
}

let validator: Ajv.ValidateFunction | undefined
function makeValidator(): Ajv.ValidateFunction {
  // R4's schema is draft-06: ajv 6 knows it once its meta-schema is added.
  const ajv = new Ajv({ allErrors: true, schemaId: 'auto', unknownFormats: 'ignore' })
  ajv.addMetaSchema(draft06)
  return ajv.compile(fhirSchema)
}
