/**
 * A bookmark add racing a delete: the exam (or the image) is deleted after addBookmark has checked
 * it and before its insert. The insert then violates a foreign key (PostgreSQL 23503, SQLite
 * SQLITE_CONSTRAINT_FOREIGNKEY), which used to reach the client as a 500. The race is forced, not
 * hoped for: the database handle given to addBookmark runs the delete right before the first write.
 * Runs on SQLite and, with `scripts/test-server.ts --pg`, on PostgreSQL.
 */
import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import Fastify from 'fastify'
import { BOOKMARK_MESSAGES } from '@contract/main/bookmarks'
import type { DB } from '../../src/db'
import { EXAM_NOT_FOUND } from '../../src/domain/records/access'
import { addBookmark } from '../../src/domain/patient/bookmarks'
import { ApiError, GONE_MEANWHILE, isForeignKeyViolation } from '../../src/http/errors'
import { registerErrorHandler } from '../../src/plugins/error-handler'
import type { ProfileApp } from '../domain/profile/support'
import {
  buildPatientApp,
  client,
  insertSeries,
  insertUploadExam,
  type Patient,
  patientWithCard,
} from './patient-support'

let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: Patient

before(async () => {
  ctx = await buildPatientApp()
  http = client(ctx.app)
  alice = await patientWithCard(ctx, '周九')
})

let counter = 0
const uid = () => `1.2.826.0.1.3680043.10.98.${process.pid}.${(counter += 1)}`

/**
 * `db` for addBookmark, running `meanwhile` (through the real handle, holding no connection) just
 * before the first INSERT executes: after every check addBookmark makes, before any write.
 */
function racing(db: DB, meanwhile: () => Promise<void>): DB {
  let pending: (() => Promise<void>) | undefined = meanwhile
  const wrap = <T extends object>(builder: T): T =>
    new Proxy(builder, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          if (prop === 'execute' && pending) {
            const run = pending
            pending = undefined
            return run().then(() => (value as (...a: unknown[]) => unknown).apply(target, args))
          }
          const result = (value as (...a: unknown[]) => unknown).apply(target, args)
          return result && typeof result === 'object' ? wrap(result) : result
        }
      },
    })
  return new Proxy(db, {
    get(target, prop) {
      const value = Reflect.get(target, prop, target) as unknown
      if (prop === 'insertInto')
        return (table: string) => wrap(target.insertInto(table as 'bookmarks') as object)
      return typeof value === 'function' ? (value as () => unknown).bind(target) : value
    },
  })
}

async function uploadWithImages(count: number) {
  const db = ctx.app.db
  const exam = await insertUploadExam(db, alice.user.id, { title: '竞争测试' })
  const seriesUid = uid()
  const sops = Array.from({ length: count }, () => ({ sop: uid(), frames: 1 }))
  const { instanceIds } = await insertSeries(db, exam.id, seriesUid, sops)
  return { exam, seriesUid, sops: sops.map((s) => s.sop), instanceIds }
}

/** What addBookmark throws (or undefined when it succeeds). */
async function attempt(db: DB, input: Parameters<typeof addBookmark>[3]): Promise<unknown> {
  try {
    await addBookmark(db, ctx.app.personalCipher, alice.user.id, input, ctx.clock.now())
    return undefined
  } catch (error) {
    return error
  }
}

test('the exam deleted between the check and the insert: 404 检查不存在或您无权查看, not 500', async () => {
  const { exam, seriesUid, sops } = await uploadWithImages(1)
  const error = await attempt(
    racing(ctx.app.db, async () => {
      const res = await http.send('DELETE', `/main/dicom-upload/exams/${exam.id}`, alice.token)
      assert.equal(res.statusCode, 200, res.body)
    }),
    { examId: exam.id, seriesUid, sopInstanceUid: sops[0]! },
  )
  assert.ok(error instanceof ApiError, `${String(error)}`)
  assert.equal(error.statusCode, 404)
  assert.equal(error.userMessage, EXAM_NOT_FOUND)
})

test('the image deleted between the check and the insert: 400 找不到该图像, as a retry would get', async () => {
  const { exam, seriesUid, sops, instanceIds } = await uploadWithImages(2)
  const error = await attempt(
    racing(ctx.app.db, async () => {
      const res = await http.send(
        'DELETE',
        `/main/dicom-upload/exams/${exam.id}/instances/${instanceIds[0]}`,
        alice.token,
      )
      assert.equal(res.statusCode, 200, res.body)
    }),
    { examId: exam.id, seriesUid, sopInstanceUid: sops[0]! },
  )
  assert.ok(error instanceof ApiError, `${String(error)}`)
  assert.equal(error.statusCode, 400)
  assert.equal(error.userMessage, BOOKMARK_MESSAGES.imageNotFound)
  // Nothing half-written: no bookmark on the exam, and the other image still takes one.
  const rows = await ctx.app.db
    .selectFrom('bookmarks')
    .select('id')
    .where('exam_id', '=', exam.id)
    .execute()
  assert.deepEqual(rows, [])
  assert.equal(
    await attempt(ctx.app.db, { examId: exam.id, seriesUid, sopInstanceUid: sops[1]! }),
    undefined,
  )
})

test('the database itself reports the violation these answers stand for', async () => {
  const { exam, seriesUid, sops } = await uploadWithImages(1)
  // The raw insert (no domain code): proves the race makes a real FK violation on this database.
  let caught: unknown
  try {
    await ctx.app.db
      .insertInto('bookmarks')
      .values({
        id: uid(),
        user_id: alice.user.id,
        exam_id: `${exam.id}-gone`,
        instance_id: 'gone',
        series_uid: seriesUid,
        sop_instance_uid: sops[0]!,
        frame: 1,
        note: '',
        created_at: new Date().toISOString(),
      })
      .execute()
  } catch (error) {
    caught = error
  }
  assert.ok(isForeignKeyViolation(caught), `${String(caught)}`)
})

test('any other foreign-key violation is a Chinese 409, never a 500 (both databases’ codes)', async () => {
  const app = Fastify({ logger: false })
  registerErrorHandler(app)
  app.get('/pg', async () => {
    throw Object.assign(new Error('insert or update violates foreign key constraint'), {
      code: '23503',
    })
  })
  app.get('/sqlite', async () => {
    throw Object.assign(new Error('FOREIGN KEY constraint failed'), {
      code: 'SQLITE_CONSTRAINT_FOREIGNKEY',
    })
  })
  for (const url of ['/pg', '/sqlite']) {
    const res = await app.inject(url)
    assert.equal(res.statusCode, 409, url)
    assert.equal(res.json().error, GONE_MEANWHILE, url)
  }
  await app.close()
})
