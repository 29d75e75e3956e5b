import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { z } from 'zod/mini'
import { envelope } from '@contract/envelope'
import { BOOKMARK_MESSAGES, BOOKMARKS_PER_EXAM_MAX, BookmarkSchema } from '@contract/main/bookmarks'
import type { DB } from '../../src/db'
import type { ExamsTable } from '../../src/db/schema'
import { eraseAccount } from '../../src/domain/profile/account'
import { EXAM_NOT_FOUND } from '../../src/domain/records/access'
import { type ProfileApp, signUp, type TestUser } from '../domain/profile/support'
import {
  addHospital,
  buildPatientApp,
  clearSeededHospitals,
  client,
  insertExam,
  insertSeries,
  insertUploadExam,
  type Patient,
  patientWithCard,
} from './patient-support'

/*
 * Bookmarks (书签) end to end through /main: the one access check, the image belonging to the exam,
 * the note's limit, the per-exam cap under a burst, and deletion with the exam or the file.
 */

let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: Patient
let stranger: TestUser
let upload: ExamsTable
let hospitalExam: ExamsTable
let otherExam: ExamsTable

interface Image {
  instanceId: string
  seriesUid: string
  sopInstanceUid: string
}
const images = new Map<string, Image[]>()

let uidCounter = 0
const uid = () => `1.2.826.0.1.3680043.10.99.${process.pid}.${(uidCounter += 1)}`

/** One series of `count` instances on the exam (rows as ingest leaves them; no files needed here). */
async function addSeries(db: DB, exam: ExamsTable, count: number, frames = 1): Promise<Image[]> {
  const seriesUid = uid()
  const sops = Array.from({ length: count }, () => ({ sop: uid(), frames }))
  const { instanceIds } = await insertSeries(db, exam.id, seriesUid, sops)
  const made = sops.map(({ sop }, i) => ({
    instanceId: instanceIds[i]!,
    seriesUid,
    sopInstanceUid: sop,
  }))
  images.set(exam.id, [...(images.get(exam.id) ?? []), ...made])
  return made
}

const url = (examId: string) => `/main/exams/${examId}/bookmarks`

before(async () => {
  ctx = await buildPatientApp()
  http = client(ctx.app)
  const { db } = ctx.app
  await clearSeededHospitals(db)
  await addHospital(db, { id: 'h-bm', name: '书签测试医院' })
  alice = await patientWithCard(ctx, '孙八')
  stranger = await signUp(db, ctx.clock.now())
  upload = await insertUploadExam(db, alice.user.id, { title: '外院胸部 CT' })
  hospitalExam = await insertExam(db, ctx.app.personalCipher, {
    hospitalId: 'h-bm',
    patient: alice,
  })
  otherExam = await insertUploadExam(db, stranger.user.id, { title: '别人的上传' })
  await addSeries(db, upload, 3)
  await addSeries(db, upload, 1, 30)
  await addSeries(db, hospitalExam, 2)
  await addSeries(db, otherExam, 1)
})

function dataOf<T>(body: string, schema: z.ZodMiniType<T>): T {
  const parsed = envelope(schema).parse(JSON.parse(body)) as { data: T }
  return parsed.data
}

test('a bookmark is added with its note and frame, listed oldest first, and deleted', async () => {
  const [first, second] = images.get(hospitalExam.id)!
  let res = await http.get(url(hospitalExam.id), alice.token)
  assert.equal(res.statusCode, 200, res.body)
  assert.deepEqual(JSON.parse(res.body).data, [])

  res = await http.send('POST', url(hospitalExam.id), alice.token, {
    seriesUid: second!.seriesUid,
    sopInstanceUid: second!.sopInstanceUid,
    note: '  右肺小结节  ',
  })
  assert.equal(res.statusCode, 200, res.body)
  const added = dataOf(res.body, BookmarkSchema)
  assert.equal(added.examId, hospitalExam.id)
  assert.equal(added.frame, 1)
  assert.equal(added.note, '右肺小结节', 'the note is trimmed')
  assert.equal(added.createdAt, ctx.clock.now().toISOString())
  assert.equal(added.instanceNumber, 2, 'the slice number, for 第 N 层')

  ctx.clock.advance(1000)
  res = await http.send('POST', url(hospitalExam.id), alice.token, {
    seriesUid: first!.seriesUid,
    sopInstanceUid: first!.sopInstanceUid,
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(dataOf(res.body, BookmarkSchema).note, '')

  res = await http.get(url(hospitalExam.id), alice.token)
  const listed = dataOf(res.body, z.array(BookmarkSchema))
  assert.deepEqual(
    listed.map((b) => b.sopInstanceUid),
    [second!.sopInstanceUid, first!.sopInstanceUid],
  )
  assert.deepEqual(
    listed.map((b) => b.instanceNumber),
    [2, 1],
  )

  res = await http.send('DELETE', `/main/bookmarks/${added.id}`, alice.token)
  assert.equal(res.statusCode, 200, res.body)
  res = await http.send('DELETE', `/main/bookmarks/${added.id}`, alice.token)
  assert.equal(res.statusCode, 404)
  assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.notFound)
  res = await http.get(url(hospitalExam.id), alice.token)
  assert.equal(dataOf(res.body, z.array(BookmarkSchema)).length, 1)
})

test('a frame of a multi-frame image is kept; a frame it does not have is refused', async () => {
  const [cine] = images.get(upload.id)!.slice(3)
  let res = await http.send('POST', url(upload.id), alice.token, {
    seriesUid: cine!.seriesUid,
    sopInstanceUid: cine!.sopInstanceUid,
    frame: 30,
  })
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(dataOf(res.body, BookmarkSchema).frame, 30)
  res = await http.send('POST', url(upload.id), alice.token, {
    seriesUid: cine!.seriesUid,
    sopInstanceUid: cine!.sopInstanceUid,
    frame: 31,
  })
  assert.equal(res.statusCode, 400)
  assert.match(JSON.parse(res.body).error, /共 30 帧，没有第 31 帧/)
  for (const frame of [0, 1.5, -2]) {
    res = await http.send('POST', url(upload.id), alice.token, {
      seriesUid: cine!.seriesUid,
      sopInstanceUid: cine!.sopInstanceUid,
      frame,
    })
    assert.equal(res.statusCode, 400, `frame ${frame}`)
    assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.frame)
  }
})

test('frame is a positive integer or its decimal digits; nothing else is read as a number', async () => {
  const [cine] = images.get(upload.id)!.slice(3)
  const add = (frame: unknown) =>
    http.send('POST', url(upload.id), alice.token, {
      seriesUid: cine!.seriesUid,
      sopInstanceUid: cine!.sopInstanceUid,
      frame,
    })
  // A loose coercion took these as 1, 16, 16, 2, 3, 5 and 1.
  for (const frame of [true, '0x10', '0b10000', '2e0', [3], ' 5', '1.0', '', null, {}, '0']) {
    const res = await add(frame)
    assert.equal(res.statusCode, 400, `frame ${JSON.stringify(frame)}: ${res.body}`)
    assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.frame, JSON.stringify(frame))
  }
  const res = await add('12')
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(dataOf(res.body, BookmarkSchema).frame, 12)
})

test('the image must be one of the exam: another exam’s or a wrong series answers 找不到该图像', async () => {
  const [mine] = images.get(upload.id)!
  const [theirs] = images.get(otherExam.id)!
  const [hospitals] = images.get(hospitalExam.id)!
  const attempts = [
    // An image of the stranger's exam, named under my exam.
    { seriesUid: theirs!.seriesUid, sopInstanceUid: theirs!.sopInstanceUid },
    // An image of my other exam.
    { seriesUid: hospitals!.seriesUid, sopInstanceUid: hospitals!.sopInstanceUid },
    // My exam's image under a series it is not in.
    { seriesUid: hospitals!.seriesUid, sopInstanceUid: mine!.sopInstanceUid },
    { seriesUid: mine!.seriesUid, sopInstanceUid: '1.2.3.4' },
  ]
  for (const payload of attempts) {
    const res = await http.send('POST', url(upload.id), alice.token, payload)
    assert.equal(res.statusCode, 400, JSON.stringify(payload))
    assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.imageNotFound)
  }
  const res = await http.send('POST', url(upload.id), alice.token, {
    seriesUid: 'not-a-uid',
    sopInstanceUid: mine!.sopInstanceUid,
  })
  assert.equal(res.statusCode, 400)
  assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.uid)
})

test('the note is at most 200 characters (an emoji is one), without invisible characters', async () => {
  const [image] = images.get(upload.id)!
  const post = (note: string) =>
    http.send('POST', url(upload.id), alice.token, {
      seriesUid: image!.seriesUid,
      sopInstanceUid: image!.sopInstanceUid,
      note,
    })
  let res = await post('结'.repeat(201))
  assert.equal(res.statusCode, 400)
  assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.noteTooLong)
  res = await post('😀'.repeat(200))
  assert.equal(res.statusCode, 200, res.body)
  res = await post('第一行\n第二行')
  assert.equal(res.statusCode, 200, res.body)
  res = await post('abc\u202Eexe.png')
  assert.equal(res.statusCode, 400)
  assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.noteUnsafe)
})

test('only the exam’s viewer lists and adds (404 to anyone else); only the owner deletes', async () => {
  const [image] = images.get(hospitalExam.id)!
  let res = await http.get(url(hospitalExam.id), stranger.token)
  assert.equal(res.statusCode, 404)
  assert.equal(JSON.parse(res.body).error, EXAM_NOT_FOUND)
  res = await http.send('POST', url(hospitalExam.id), stranger.token, {
    seriesUid: image!.seriesUid,
    sopInstanceUid: image!.sopInstanceUid,
  })
  assert.equal(res.statusCode, 404)
  res = await http.get(url(hospitalExam.id))
  assert.equal(res.statusCode, 401)

  const mine = dataOf(
    (await http.get(url(hospitalExam.id), alice.token)).body,
    z.array(BookmarkSchema),
  )
  assert.ok(mine.length > 0)
  res = await http.send('DELETE', `/main/bookmarks/${mine[0]!.id}`, stranger.token)
  assert.equal(res.statusCode, 404)
  const after = dataOf(
    (await http.get(url(hospitalExam.id), alice.token)).body,
    z.array(BookmarkSchema),
  )
  assert.equal(after.length, mine.length, 'a stranger’s delete removed nothing')
})

test(`a burst of adds stops at ${BOOKMARKS_PER_EXAM_MAX} per person and exam`, async () => {
  const db = ctx.app.db
  const exam = await insertUploadExam(db, alice.user.id, { title: '书签上限' })
  const [image] = await addSeries(db, exam, 1)
  // Some already there, then more at once than the room left.
  for (let i = 0; i < 10; i += 1) {
    const res = await http.send('POST', url(exam.id), alice.token, {
      seriesUid: image!.seriesUid,
      sopInstanceUid: image!.sopInstanceUid,
      note: `第 ${i} 个`,
    })
    assert.equal(res.statusCode, 200, res.body)
  }
  const burst = await Promise.all(
    Array.from({ length: BOOKMARKS_PER_EXAM_MAX + 20 }, (_, i) =>
      http.send('POST', url(exam.id), alice.token, {
        seriesUid: image!.seriesUid,
        sopInstanceUid: image!.sopInstanceUid,
        note: `并发 ${i}`,
      }),
    ),
  )
  const ok = burst.filter((res) => res.statusCode === 200).length
  const refused = burst.filter((res) => res.statusCode === 400)
  assert.equal(ok, BOOKMARKS_PER_EXAM_MAX - 10)
  assert.equal(refused.length, 30)
  for (const res of refused) assert.equal(JSON.parse(res.body).error, BOOKMARK_MESSAGES.tooMany)
  const { n } = await db
    .selectFrom('bookmarks')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('exam_id', '=', exam.id)
    .executeTakeFirstOrThrow()
  assert.equal(Number(n), BOOKMARKS_PER_EXAM_MAX)

  // The cap is per exam and per person: deleting one makes room for exactly one.
  const list = dataOf((await http.get(url(exam.id), alice.token)).body, z.array(BookmarkSchema))
  assert.equal(list.length, BOOKMARKS_PER_EXAM_MAX)
  await http.send('DELETE', `/main/bookmarks/${list[0]!.id}`, alice.token)
  const again = await Promise.all(
    [1, 2].map(() =>
      http.send('POST', url(exam.id), alice.token, {
        seriesUid: image!.seriesUid,
        sopInstanceUid: image!.sopInstanceUid,
      }),
    ),
  )
  assert.deepEqual(again.map((res) => res.statusCode).sort(), [200, 400])
})

test('deleting a file of an upload, or the whole upload, deletes the bookmarks on it', async () => {
  const db = ctx.app.db
  const exam = await insertUploadExam(db, alice.user.id, { title: '将被删除' })
  const [kept, removed] = await addSeries(db, exam, 2)
  for (const image of [kept!, removed!]) {
    const res = await http.send('POST', url(exam.id), alice.token, {
      seriesUid: image.seriesUid,
      sopInstanceUid: image.sopInstanceUid,
    })
    assert.equal(res.statusCode, 200, res.body)
  }
  let res = await http.send(
    'DELETE',
    `/main/dicom-upload/exams/${exam.id}/instances/${removed!.instanceId}`,
    alice.token,
  )
  assert.equal(res.statusCode, 200, res.body)
  const left = dataOf((await http.get(url(exam.id), alice.token)).body, z.array(BookmarkSchema))
  assert.deepEqual(
    left.map((b) => b.sopInstanceUid),
    [kept!.sopInstanceUid],
  )

  res = await http.send('DELETE', `/main/dicom-upload/exams/${exam.id}`, alice.token)
  assert.equal(res.statusCode, 200, res.body)
  const rows = await db
    .selectFrom('bookmarks')
    .select('id')
    .where('exam_id', '=', exam.id)
    .execute()
  assert.deepEqual(rows, [])
  const counts = await db
    .selectFrom('bookmark_counts')
    .select('count')
    .where('exam_id', '=', exam.id)
    .execute()
  assert.deepEqual(counts, [])
})

test('deleting the account deletes its bookmarks (the notes are the person’s own words)', async () => {
  const db = ctx.app.db
  const person = await signUp(db, ctx.clock.now())
  const exam = await insertUploadExam(db, person.user.id, { title: '注销前的上传' })
  const [image] = await addSeries(db, exam, 1)
  const res = await http.send('POST', url(exam.id), person.token, {
    seriesUid: image!.seriesUid,
    sopInstanceUid: image!.sopInstanceUid,
    note: '只属于我的备注',
  })
  assert.equal(res.statusCode, 200, res.body)
  await db
    .transaction()
    .execute((trx) => eraseAccount(trx, person.user.id, person.mobile, ctx.clock.now()))
  const left = await db
    .selectFrom('bookmarks')
    .select('note')
    .where('user_id', '=', person.user.id)
    .execute()
  assert.deepEqual(left, [])
  const counts = await db
    .selectFrom('bookmark_counts')
    .select('count')
    .where('user_id', '=', person.user.id)
    .execute()
  assert.deepEqual(counts, [])
})
