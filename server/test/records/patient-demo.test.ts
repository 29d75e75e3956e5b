import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { envelope } from '@contract/envelope'
import {
  getExamDetail,
  getReportDetail,
  listMyImages,
  listPersonalReports,
} from '@contract/main/records'
import { createSession } from '../../src/domain/identity'
import { DEMO_ACCOUNTS } from '../../src/domain/identity/demo'
import { findUserByMobile } from '../../src/domain/identity/users'
import { seedDemoRecords } from '../../src/domain/demo-records/seed'
import { buildTestApp } from '../helpers'

/*
 * The patient API over records that arrived the real way: the demo seed pushes its studies by STOW-RS
 * and its reports (one amended after it was final) by FHIR, so report contents and history here are
 * read from what routes/fhir stored, not from fixtures.
 */
test('the demo patient reads pushed studies and FHIR reports, with the amendment history', async () => {
  const app = await buildTestApp({
    demoMode: true,
    uploadDir: path.join(os.tmpdir(), `patient-demo-${randomBytes(4).toString('hex')}`),
  })
  await app.ready()
  await seedDemoRecords(app)
  const patient = (await findUserByMobile(app.db, DEMO_ACCOUNTS[0].mobile))!
  const { access_token: token } = await createSession(app.db, patient.id, new Date())
  const get = async <T>(schema: { parse(value: unknown): { data: T } }, url: string) => {
    const res = await app.inject({ url, headers: { authorization: `Bearer ${token}` } })
    assert.equal(res.statusCode, 200, res.body)
    return schema.parse(res.json()).data
  }

  const reports = await get(envelope(listPersonalReports.output), '/main/reports')
  assert.ok(reports.total >= 3, JSON.stringify(reports.items.map((item) => item.title)))
  assert.equal(reports.unread, reports.total)
  const amended = reports.items.find((item) => item.status === 'amended')
  assert.ok(amended, 'the amended CT report is listed')
  assert.equal(amended.statusLabel, '已修订')

  const detail = await get(envelope(getReportDetail.output), `/main/reports/${amended.id}`)
  assert.equal(detail.locked, false)
  assert.ok(detail.findings && detail.conclusion, 'findings and conclusion of the latest version')
  assert.ok(detail.performer, 'the reporting doctor')
  assert.ok(detail.history.length >= 1)
  assert.deepEqual(
    detail.history.map((version) => version.version),
    Array.from({ length: detail.version - 1 }, (_, i) => i + 1),
    'every earlier version, oldest first',
  )
  const final = detail.history.find((version) => version.status === 'final')
  assert.ok(final, 'the final version before the amendment')
  assert.ok(final.findings, 'its 影像所见, read from the stored FHIR resource')
  assert.ok(final.conclusion)
  assert.ok(final.performer)
  assert.notEqual(
    `${final.findings}${final.conclusion}`,
    `${detail.findings}${detail.conclusion}`,
    'the amendment changed the report',
  )
  assert.equal(detail.read, true)

  const groups = await get(envelope(listMyImages.output), '/main/images')
  assert.deepEqual(
    groups.map((group) => group.hospital?.id),
    [...new Set(groups.map((group) => group.hospital?.id))],
    'one group per hospital',
  )
  assert.equal(
    groups.reduce((sum, group) => sum + group.examCount, 0),
    4,
  )
  const exam = groups
    .flatMap((group) => group.latest)
    .find((item) => item.modalities.includes('MR'))!
  const examDetail = await get(envelope(getExamDetail.output), `/main/exams/${exam.id}`)
  assert.ok(examDetail.series.length >= 1)
  for (const series of examDetail.series) {
    assert.match(
      series.thumbnailPath ?? '',
      new RegExp(
        `^/dicomweb/studies/${examDetail.studyUid}/series/${series.seriesUid}/instances/[0-9.]+/thumbnail$`,
      ),
    )
  }
  // The path answers an image to the same patient (WADO-RS, helper B's route).
  const thumb = await app.inject({
    url: examDetail.series[0]!.thumbnailPath!,
    headers: { authorization: `Bearer ${token}`, accept: 'image/jpeg' },
  })
  assert.equal(thumb.statusCode, 200, thumb.body.slice(0, 200))
  assert.match(String(thumb.headers['content-type']), /^image\/jpeg/)
})
