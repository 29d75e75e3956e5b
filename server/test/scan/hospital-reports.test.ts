import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { FILM_READY_AFTER_HOURS } from '@contract/scan/hospital-reports'
import { roomCodeUrl } from '../../src/domain/claims/rooms'
import { signUp } from '../domain/profile/support'
import {
  claimWorld,
  type ClaimWorld,
  errorOf,
  get,
  patient,
  post,
  pushExam,
} from '../records/claim-support'

/** The exam is the user's (as a claim through 影像查询 or a film-bag code leaves it). */
async function own(world: ClaimWorld, userId: string, examId: string): Promise<void> {
  await world.app.db
    .insertInto('exam_claims')
    .values({ user_id: userId, exam_id: examId, via: 'query', created_at: '2030-06-01T08:00:00Z' })
    .execute()
}

async function addRoom(world: ClaimWorld, hospitalId: string, name = 'CT 室'): Promise<string> {
  const id = `room-${randomUUID().slice(0, 8)}`
  await world.app.db
    .insertInto('departments')
    .values({ id, hospital_id: hospitalId, name, sort_order: 1 })
    .execute()
  return id
}

function reports(world: ClaimWorld, token: string, query: string) {
  return get(world, `/scan/hospital-reports?${query}`, { token })
}

test('院内报告: each of my exams at the hospital, with where its report stands', async () => {
  const world = await claimWorld()
  const roomId = await addRoom(world, world.hospital.id)

  // Oldest first: 可取片 needs its report to have been released a while ago.
  const released = await pushExam(world, { report: { status: 'final' }, description: '头颅 MR' })
  world.clock.advance((FILM_READY_AFTER_HOURS + 1) * 3_600_000)
  const examined = await pushExam(world, { description: '胸部 CT 平扫' })
  const writing = await pushExam(world, {
    report: { status: 'preliminary' },
    description: '腹部 CT',
  })
  const fresh = await pushExam(world, { report: { status: 'amended' }, description: '膝关节 MR' })
  const elsewhere = await pushExam(world, { hospitalId: world.other.id })
  const me = await patient(world)
  for (const exam of [released, examined, writing, fresh, elsewhere]) {
    await own(world, me.user.id, exam.id)
  }
  // Someone else's exam at the same hospital is never listed.
  const stranger = await patient(world)
  const theirs = await pushExam(world, { report: { status: 'final' } })
  await own(world, stranger.user.id, theirs.id)

  const res = await reports(world, me.token, `hospitalId=${world.hospital.id}&roomId=${roomId}`)
  assert.equal(res.statusCode, 200, res.body)
  const data = res.json().data
  assert.deepEqual(data.hospital, world.hospital)
  assert.deepEqual(data.room, { id: roomId, name: 'CT 室' })
  assert.deepEqual(data.counts, { total: 4, examined: 1, reporting: 1, reported: 1, filmReady: 1 })
  const stateOf = new Map(
    data.items.map((item: { exam: { id: string }; state: string; stateLabel: string }) => [
      item.exam.id,
      `${item.state} ${item.stateLabel}`,
    ]),
  )
  assert.equal(stateOf.get(examined.id), 'examined 已检查')
  assert.equal(stateOf.get(writing.id), 'reporting 报告中')
  assert.equal(stateOf.get(fresh.id), 'reported 已出报告')
  assert.equal(stateOf.get(released.id), 'filmReady 可取片')
  assert.ok(!stateOf.has(theirs.id), "another patient's exam is never listed")
  assert.ok(!stateOf.has(elsewhere.id), "another hospital's exam is not this hospital's")
  // Each links to 报告详情 when there is a report.
  const withReport = data.items.find((item: { exam: { id: string } }) => item.exam.id === fresh.id)
  assert.ok(withReport.exam.report.id)

  // The other patient sees theirs only; a hospital code without a room lists the same.
  const other = await reports(world, stranger.token, `hospitalId=${world.hospital.id}`)
  assert.equal(other.statusCode, 200, other.body)
  assert.equal(other.json().data.room, null)
  assert.deepEqual(
    other.json().data.items.map((item: { exam: { id: string } }) => item.exam.id),
    [theirs.id],
  )
})

test('院内报告: nothing there yet is an empty answer; unknown hospital or room 404; login needed', async () => {
  const world = await claimWorld()
  const roomId = await addRoom(world, world.hospital.id)
  const otherRoom = await addRoom(world, world.other.id)
  const me = await patient(world)

  const empty = await reports(world, me.token, `hospitalId=${world.hospital.id}&roomId=${roomId}`)
  assert.equal(empty.statusCode, 200, empty.body)
  assert.deepEqual(empty.json().data.items, [])
  assert.equal(empty.json().data.counts.total, 0)

  const noHospital = await reports(world, me.token, `hospitalId=no-such-hospital&roomId=${roomId}`)
  assert.equal(noHospital.statusCode, 404)
  assert.equal(errorOf(noHospital), '该医院不存在')
  const noRoom = await reports(world, me.token, `hospitalId=${world.hospital.id}&roomId=nope`)
  assert.equal(noRoom.statusCode, 404)
  assert.match(errorOf(noRoom), /诊室不存在/)
  // Another hospital's room is as unknown as a made-up one.
  const mixed = await reports(
    world,
    me.token,
    `hospitalId=${world.hospital.id}&roomId=${otherRoom}`,
  )
  assert.equal(mixed.statusCode, 404)

  const anonymous = await get(world, `/scan/hospital-reports?hospitalId=${world.hospital.id}`)
  assert.equal(anonymous.statusCode, 401)

  // A family member the caller does not manage: refused, never listed.
  const stranger = await patient(world)
  const notMine = await reports(
    world,
    me.token,
    `hospitalId=${world.hospital.id}&personId=${stranger.user.id}`,
  )
  assert.equal(notMine.statusCode, 403)
})

test('a hospital prints the code of its own room; the code opens 院内报告', async () => {
  const world = await claimWorld()
  const roomId = await addRoom(world, world.hospital.id, '自助打印机 1')
  const otherRoom = await addRoom(world, world.other.id)

  const issued = await post(world, '/scan/room-codes', { roomId }, { key: world.hospitalKey })
  assert.equal(issued.statusCode, 200, issued.body)
  const data = issued.json().data
  assert.deepEqual(data.hospital, world.hospital)
  assert.deepEqual(data.room, { id: roomId, name: '自助打印机 1' })
  assert.equal(data.url, roomCodeUrl('http://localhost:80', world.hospital.id, roomId))
  assert.equal(
    data.url,
    `http://localhost:80/pages/report/reportIn?hospitalId=${world.hospital.id}&roomId=${roomId}`,
  )
  assert.match(data.qrImage, /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/)

  const others = await post(
    world,
    '/scan/room-codes',
    { roomId: otherRoom },
    { key: world.hospitalKey },
  )
  assert.equal(others.statusCode, 404)
  assert.match(errorOf(others), /诊室不存在/)
  const anonymous = await post(world, '/scan/room-codes', { roomId })
  assert.equal(anonymous.statusCode, 401)
  const me = await patient(world)
  const asPatient = await post(world, '/scan/room-codes', { roomId }, { token: me.token })
  assert.equal(asPatient.statusCode, 401)
})

test('an operator prints the code of any hospital room; nobody else may', async () => {
  const world = await claimWorld()
  const roomId = await addRoom(world, world.other.id, 'MR 室')
  const operator = await signUp(world.app.db, world.clock.now(), { role: 'operator' })
  const url = `/main/operator/hospitals/${world.other.id}/room-codes`
  const issued = await post(world, url, { roomId }, { token: operator.token })
  assert.equal(issued.statusCode, 200, issued.body)
  assert.equal(issued.json().data.url, roomCodeUrl('http://localhost:80', world.other.id, roomId))
  assert.deepEqual(issued.json().data.room, { id: roomId, name: 'MR 室' })
  // The room of another hospital than the one named: 404.
  const wrong = await post(
    world,
    `/main/operator/hospitals/${world.hospital.id}/room-codes`,
    { roomId },
    { token: operator.token },
  )
  assert.equal(wrong.statusCode, 404)
  const me = await patient(world)
  assert.equal((await post(world, url, { roomId }, { token: me.token })).statusCode, 403)
})
