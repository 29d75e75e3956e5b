import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import dcmjs from 'dcmjs'
import { DATA_EXPORT_MESSAGES } from '@contract/main/data-export'
import { consultationSharing, manage, uploadBox } from '../ai/support'
import { buildApp } from '../../src/app'
import { json } from '../content/support'
import { type ConsultWorld, consultWorld, expert } from '../consultations/support'
import { Clock, signUp, smsCode } from '../domain/profile/support'
import { closeAfter, testConfig } from '../helpers'
import { insertExam, insertReport } from '../records/patient-support'
import { finishExport, linkToken, PASSWORD, person, r4Errors, readAll, unzip } from './support'

/*
 * 导出我的数据 through the API: who may ask (the person or their family manager; never a grantee
 * or a stranger: 404), re-authentication, the audit lines, the job, the link sent by SMS only, its
 * one use and its expiry, and what the archive holds (every exam's files as stored, a DICOMDIR that
 * dcmjs and dcmtk read, the FHIR Bundle, the PDFs, consultations, grants).
 */

const hasDcmtk = (() => {
  try {
    execFileSync('dcmftest', [], { stdio: 'ignore' })
    return true
  } catch (error) {
    return (error as { status?: number }).status !== undefined
  }
})()

async function exportWorld() {
  const world = await consultWorld()
  const me = await person(world)
  const doctor = await expert(world)
  // An uploaded CT (12 real DICOM files through ingest) and a hospital exam with its report.
  const uploadId = await uploadBox(world, me)
  const hospitalExam = await insertExam(world.app.db, world.app.personalCipher, {
    hospitalId: world.hospitalId,
    patient: { idNumber: me.idNumber, name: me.realName },
  })
  const reportId = await insertReport(world.app.db, hospitalExam, { conclusion: '右肺小结节。' })
  const { consultationId, grantId } = await consultationSharing(world, me, doctor, [uploadId])
  return { world, me, doctor, uploadId, hospitalExam, reportId, consultationId, grantId }
}

test('the person exports: re-auth, audit, SMS link, one download of everything', async () => {
  const { world, me, doctor, uploadId, hospitalExam, reportId } = await exportWorld()
  const { app } = world

  const bare = await world.call(me, 'POST', '/main/data-exports', {})
  assert.equal(bare.status, 400)
  assert.equal(bare.error, DATA_EXPORT_MESSAGES.reauthRequired)
  const wrong = await world.call(me, 'POST', '/main/data-exports', { password: 'nope-nope' })
  assert.equal(wrong.status, 400)
  assert.equal(await app.db.selectFrom('data_exports').select('id').executeTakeFirst(), undefined)

  const asked = await world.call(me, 'POST', '/main/data-exports', { password: PASSWORD })
  assert.equal(asked.status, 200, asked.error ?? '')
  assert.equal(asked.data.state, 'building')
  assert.equal(asked.data.stateLabel, '生成中')
  assert.equal(asked.data.personLabel, '本人')
  const again = await world.call(me, 'POST', '/main/data-exports', { password: PASSWORD })
  assert.equal(again.status, 409)
  assert.equal(again.error, DATA_EXPORT_MESSAGES.inProgress)

  const row = await finishExport(world, asked.data.id)
  assert.equal(row.state, 'sent', row.message ?? '')
  const listed = await world.call(me, 'GET', '/main/data-exports')
  assert.equal(listed.data.items[0].state, 'sent')
  assert.equal(listed.data.items[0].stateLabel, '已发送到手机')
  assert.match(listed.data.items[0].mobileMasked, /^\d{3}\*{4}\d{4}$/)
  // The link went by SMS only: nothing the API answers carries it.
  assert.doesNotMatch(JSON.stringify(listed.data), /token/)
  const token = await linkToken(world, me.mobile!)

  const bogus = await app.inject({ url: `/main/data-exports/download?token=x${token}` })
  assert.equal(bogus.statusCode, 404)
  const res = await app.inject({ url: `/main/data-exports/download?token=${token}` })
  assert.equal(res.statusCode, 200, res.body.slice(0, 200))
  assert.equal(res.headers['content-type'], 'application/zip')
  assert.equal(res.headers['cache-control'], 'private, no-store')
  const second = await app.inject({ url: `/main/data-exports/download?token=${token}` })
  assert.equal(second.statusCode, 410)
  assert.equal(JSON.parse(second.body).error, DATA_EXPORT_MESSAGES.linkUsed)
  const after = await world.call(me, 'GET', '/main/data-exports')
  assert.equal(after.data.items[0].stateLabel, '已下载')
  // The one download took the archive away with it.
  const kept = await app.db
    .selectFrom('data_exports')
    .select('archive_key')
    .where('id', '=', asked.data.id)
    .executeTakeFirstOrThrow()
  for (let i = 0; i < 50 && (await app.store.exists(kept.archive_key!)); i++)
    await new Promise((resolve) => setTimeout(resolve, 20))
  assert.equal(await app.store.exists(kept.archive_key!), false)

  const audit = await app.db
    .selectFrom('audit_events')
    .select(['kind', 'detail'])
    .where('user_id', '=', me.user.id)
    .where('kind', 'like', 'data-export%')
    .orderBy('created_at')
    .execute()
  assert.deepEqual(
    audit.map((a) => a.kind),
    ['data-export', 'data-export-download'],
  )

  // What the archive holds.
  const entries = await unzip(res.rawPayload)
  const names = [...entries.keys()]
  for (const name of [
    'README.txt',
    'DICOMDIR',
    'profile/profile.json',
    'consents/consents.json',
    'fhir/bundle.json',
    'grants/grants.json',
    'messages/messages.json',
    'favourites/favourites.json',
    'points/points.json',
  ])
    assert.ok(entries.has(name), `${name} in ${names.join(', ')}`)
  assert.match(entries.get('README.txt')!.toString('utf8'), /DICOMDIR/)
  const profile = JSON.parse(entries.get('profile/profile.json')!.toString('utf8'))
  assert.equal(profile.idCard.number, me.idNumber)
  assert.equal(profile.idCard.holder, me.realName)

  // Every instance of the upload, byte for byte as stored, under an 8-character path.
  const instances = await app.db
    .selectFrom('instances')
    .select(['sop_instance_uid', 'file_key'])
    .where('exam_id', '=', uploadId)
    .execute()
  assert.equal(instances.length, 12)
  const dicomNames = names.filter((name) => name.startsWith('DICOM/'))
  assert.equal(dicomNames.length, 12)
  for (const name of dicomNames) assert.match(name, /^DICOM(\/[A-Z0-9_]{1,8}){4}$/)
  const stored = new Map<string, Buffer>()
  for (const instance of instances)
    stored.set(
      instance.sop_instance_uid,
      await readAll((await app.store.get(instance.file_key)).body),
    )

  // The DICOMDIR, read back by dcmjs: one IMAGE record per file, naming it and its SOP instance.
  const dir = dcmjs.data.DicomMessage.readFile(
    new Uint8Array(entries.get('DICOMDIR')!).buffer as ArrayBuffer,
  )
  assert.equal(dir.meta['00020002']?.Value?.[0], '1.2.840.10008.1.3.10')
  const records = dir.dict['00041220']?.Value as Record<string, { Value?: unknown[] }>[]
  const type = (r: (typeof records)[number]) => String(r['00041430']!.Value![0]).trim()
  assert.equal(records.filter((r) => type(r) === 'PATIENT').length >= 1, true)
  // Every exam of the person is a study: the CT (12 images), the hospital exam (a report, no images
  // stored here) and the upload the consultation's application made.
  const examCount = (
    await app.db
      .selectFrom('exams')
      .select('id')
      .where((eb) => eb.or([eb('owner_user_id', '=', me.user.id), eb('id', '=', hospitalExam.id)]))
      .execute()
  ).length
  assert.equal(records.filter((r) => type(r) === 'STUDY').length, examCount)
  const images = records.filter((r) => type(r) === 'IMAGE')
  assert.equal(images.length, 12)
  for (const image of images) {
    const file = (image['00041500']!.Value as string[]).join('/')
    const sop = String(image['00041511']!.Value![0])
    assert.ok(entries.get(file), `${file} is in the archive`)
    assert.ok(entries.get(file)!.equals(stored.get(sop)!), `${file} is ${sop} as stored`)
  }
  if (hasDcmtk) {
    const folder = mkdtempSync(path.join(tmpdir(), 'export-'))
    try {
      writeFileSync(path.join(folder, 'DICOMDIR'), entries.get('DICOMDIR')!)
      const out = execFileSync('dcmdump', ['+P', '0004,1500', path.join(folder, 'DICOMDIR')])
      assert.equal(
        out
          .toString()
          .split('\n')
          .filter((line) => line.includes('(0004,1500)')).length,
        12,
      )
      execFileSync('dcmftest', [path.join(folder, 'DICOMDIR')])
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }

  // The FHIR Bundle: the person, both exams, the hospital's report pointing at them.
  const bundle = JSON.parse(entries.get('fhir/bundle.json')!.toString('utf8'))
  assert.equal(bundle.resourceType, 'Bundle')
  assert.deepEqual(r4Errors(bundle), [])
  // The validator can fail: a status R4 does not know is refused.
  const broken = structuredClone(bundle)
  broken.entry[1].resource.status = 'finished'
  assert.notDeepEqual(r4Errors(broken), [])
  assert.equal(bundle.type, 'collection')
  const resources = bundle.entry.map((e: { resource: { resourceType: string } }) => e.resource)
  const ofType = (t: string) =>
    resources.filter((r: { resourceType: string }) => r.resourceType === t)
  assert.equal(ofType('Patient').length, 1)
  assert.equal(ofType('Patient')[0].name[0].text, me.realName)
  const studies = ofType('ImagingStudy')
  assert.equal(studies.length, examCount)
  for (const id of [uploadId, hospitalExam.id])
    assert.ok(studies.some((s: { id: string }) => s.id === id))
  const ct = studies.find((s: { id: string }) => s.id === uploadId)
  assert.equal(ct.numberOfInstances, 12)
  const report = ofType('DiagnosticReport').find((r: { id: string }) => r.id === reportId)
  assert.equal(report.conclusion, '右肺小结节。')
  assert.equal(report.subject.reference, `urn:uuid:${me.user.id}`)
  assert.deepEqual(report.imagingStudy, [{ reference: `urn:uuid:${hospitalExam.id}` }])

  // PDFs of the reports (the hospital's and the upload's personal one), when a CJK font exists.
  if (app.config.pdfFont) {
    const pdfs = names.filter((name) => /^reports\/.*\.pdf$/.test(name))
    assert.ok(pdfs.length >= 2, pdfs.join(', '))
    for (const pdf of pdfs) assert.equal(entries.get(pdf)!.subarray(0, 5).toString(), '%PDF-')
  }
  // The consultation and its grant (to the expert), with the conversation.
  const consultation = names.find((name) =>
    /^consultations\/001-.*\/consultation\.json$/.test(name),
  )
  assert.ok(consultation)
  const grants = JSON.parse(entries.get('grants/grants.json')!.toString('utf8'))
  assert.equal(grants.length, 1)
  assert.equal(grants[0].purpose, 'consultation')
  assert.equal(grants[0].records[0].examId, uploadId)

  // The expert the grant shares the CT with may not export the patient's data.
  const grantee = await world.call(doctor, 'POST', '/main/data-exports', {
    personId: me.user.id,
    password: 'Expert2030',
  })
  assert.equal(grantee.status, 404)
  assert.equal(grantee.error, DATA_EXPORT_MESSAGES.personNotFound)
})

test('a stranger and a grantee get 404; a family manager exports a member, to their own phone', async () => {
  const world = await consultWorld()
  const member = await person(world, '钱成员')
  const stranger = await signUp(world.app.db, world.clock.now(), { password: PASSWORD })
  const refused = await world.call(stranger, 'POST', '/main/data-exports', {
    personId: member.user.id,
    password: PASSWORD,
  })
  assert.equal(refused.status, 404)
  assert.equal(refused.error, DATA_EXPORT_MESSAGES.personNotFound)

  const manager = await manage(world, member)
  const code = await smsCode(world.app.db, manager.mobile!, 'verify-old', world.clock.now())
  const listed = await world.call(manager, 'GET', '/main/data-exports')
  assert.deepEqual(
    listed.data.people.map((p: { id: string }) => p.id),
    [manager.user.id, member.user.id],
  )
  const asked = await world.call(manager, 'POST', '/main/data-exports', {
    personId: member.user.id,
    smsCode: code,
  })
  assert.equal(asked.status, 200, asked.error ?? '')
  assert.match(asked.data.personLabel, /家庭成员/)
  const row = await finishExport(world, asked.data.id)
  assert.equal(row.state, 'sent', row.message ?? '')
  // The link goes to the manager who asked; the member's phone gets nothing.
  const token = await linkToken(world, manager.mobile!)
  await assert.rejects(linkToken(world, member.mobile!))
  const res = await world.app.inject({ url: `/main/data-exports/download?token=${token}` })
  assert.equal(res.statusCode, 200)
  const entries = await unzip(res.rawPayload)
  const profile = JSON.parse(entries.get('profile/profile.json')!.toString('utf8'))
  assert.equal(profile.id, member.user.id)
  // The member does not see the manager's request among their own.
  const memberList = await world.call(member, 'GET', '/main/data-exports')
  assert.equal(memberList.data.items.length, 0)
})

test('a link expires after 24 h: 410, and the timer deletes the archive', async () => {
  const world = await consultWorld()
  const me = await person(world)
  const asked = await world.call(me, 'POST', '/main/data-exports', { password: PASSWORD })
  assert.equal(asked.status, 200, asked.error ?? '')
  const row = await finishExport(world, asked.data.id)
  assert.equal(row.state, 'sent')
  assert.ok(await world.app.store.exists(row.archive_key!))
  const token = await linkToken(world, me.mobile!)
  await world.advance(24 * 60 * 60 * 1000 + 1000, me)
  const listed = await world.call(me, 'GET', '/main/data-exports')
  assert.equal(listed.data.items[0].stateLabel, '已过期')
  const res = await world.app.inject({ url: `/main/data-exports/download?token=${token}` })
  assert.equal(res.statusCode, 410)
  assert.equal(JSON.parse(res.body).error, DATA_EXPORT_MESSAGES.linkExpired)
  // The timer job queued for the expiry runs now that it is due.
  const timer = await world.app.db
    .selectFrom('ingest_jobs')
    .select('id')
    .where('kind', '=', 'data-export')
    .where('subject_id', '=', asked.data.id)
    .where('status', '=', 'queued')
    .executeTakeFirstOrThrow()
  await world.app.jobs.sweep()
  const { waitForJob } = await import('../../src/jobs/runner')
  const done = await waitForJob(world.app.jobs, timer.id, { timeoutMs: 30_000 })
  assert.equal(done?.status, 'done')
  const ended = await world.app.db
    .selectFrom('data_exports')
    .select(['state', 'token_hash'])
    .where('id', '=', asked.data.id)
    .executeTakeFirstOrThrow()
  assert.equal(ended.state, 'expired')
  assert.equal(ended.token_hash, null)
  assert.equal(await world.app.store.exists(row.archive_key!), false)
})

test('a job that cannot finish ends 生成失败 and keeps nothing', async () => {
  // The SMS gateway refuses every message: the archive is built, the link cannot be sent.
  const clock = new Clock()
  const app = await buildApp(testConfig(), {
    now: clock.now,
    providers: {
      smsNotices: {
        notify: async () => {
          throw new Error('gateway down')
        },
      },
    },
  })
  closeAfter(() => app.close())
  await app.ready()
  const world = {
    app,
    clock,
    call: (user: { token: string } | null, method: 'GET' | 'POST', url: string, payload?: object) =>
      json(app, {
        method,
        url,
        ...(user ? { token: user.token } : {}),
        ...(payload ? { payload } : {}),
      }),
  } as unknown as ConsultWorld
  const me = await person(world)
  const asked = await world.call(me, 'POST', '/main/data-exports', { password: PASSWORD })
  assert.equal(asked.status, 200, asked.error ?? '')
  const row = await finishExport(world, asked.data.id)
  assert.equal(row.state, 'failed')
  assert.equal(row.token_hash, null)
  const listed = await world.call(me, 'GET', '/main/data-exports')
  assert.equal(listed.data.items[0].stateLabel, '生成失败')
  assert.equal(listed.data.items[0].message, DATA_EXPORT_MESSAGES.failed)
  // Every attempt's archive is gone.
  assert.equal(await app.store.deletePrefix(`exports/${asked.data.id}/`), 0)
  // A new request may follow a failed one.
  const again = await world.call(me, 'POST', '/main/data-exports', { password: PASSWORD })
  assert.equal(again.status, 200, again.error ?? '')
})

test('the demo outbox answers the export SMS in demo mode only', async () => {
  const demo = await consultWorld({ config: { demoMode: true } })
  const me = await person(demo)
  const asked = await demo.call(me, 'POST', '/main/data-exports', { password: PASSWORD })
  await finishExport(demo, asked.data.id)
  const sms = await demo.call(null, 'GET', `/main/demo/data-exports/sms?mobile=${me.mobile}`)
  assert.equal(sms.status, 200, sms.error ?? '')
  assert.match(sms.data.text, /^【医影通】.*\/main\/data-exports\/download\?token=/)
  const plain = await consultWorld()
  const res = await plain.app.inject({ url: `/main/demo/data-exports/sms?mobile=${me.mobile}` })
  assert.equal(res.statusCode, 404)
})

test('ten requests at once for one person queue one export; the others are refused, nothing written', async () => {
  const { world, me } = await exportWorld()
  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      world.call(me, 'POST', '/main/data-exports', { password: PASSWORD }),
    ),
  )
  // One goes through. The others are refused before anything is written: 409 while it builds, or
  // 429 once the re-authentication's own limit on password tries is reached (five at once is a lot
  // for one person).
  assert.equal(answers.filter((answer) => answer.status === 200).length, 1)
  for (const answer of answers.filter((one) => one.status !== 200)) {
    assert.ok([409, 429].includes(answer.status), `${answer.status} ${answer.error}`)
    if (answer.status === 409) assert.equal(answer.error, DATA_EXPORT_MESSAGES.inProgress)
    else assert.ok(answer.error, 'the limit says why')
  }
  assert.ok(
    answers.some((answer) => answer.status === 409),
    'the building export is named',
  )
  const rows = await world.app.db
    .selectFrom('data_exports')
    .select('id')
    .where('person_user_id', '=', me.user.id)
    .execute()
  assert.equal(rows.length, 1)
})
