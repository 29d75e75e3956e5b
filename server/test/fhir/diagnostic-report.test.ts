import assert from 'node:assert/strict'
import { mkdtempSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import type { FastifyInstance } from 'fastify'
import { upsertHospitalExam } from '../../src/domain/records/exams'
import { REPORT_FINAL_CHANGE } from '../../src/domain/reports/reports'
import { buildTestApp } from '../helpers'
import { diagnosticReport, fhirHeaders, fhirWorld, residentId, studyUid } from './support'

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- FHIR JSON read field by field
type Json = Record<string, any>

async function post(world: { app: FastifyInstance }, key: string, body: unknown, headers = {}) {
  return world.app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: fhirHeaders(key, headers),
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  })
}

function outcome(response: { statusCode: number; headers: Json; json(): Json }) {
  assert.match(String(response.headers['content-type']), /^application\/fhir\+json/)
  const body = response.json()
  assert.equal(body.resourceType, 'OperationOutcome')
  return body.issue as Json[]
}

test('create answers 201 with the stored resource, its version and where it lives', async () => {
  const world = await fhirWorld()
  const uid = studyUid()
  const response = await post(world, world.key, diagnosticReport({ studyUid: uid }))
  assert.equal(response.statusCode, 201, response.body)
  assert.match(String(response.headers['content-type']), /^application\/fhir\+json/)
  const body = response.json()
  assert.equal(body.resourceType, 'DiagnosticReport')
  assert.equal(body.meta.versionId, '1')
  assert.equal(response.headers.etag, 'W/"1"')
  assert.equal(
    response.headers.location,
    `http://localhost:80/fhir/DiagnosticReport/${body.id}/_history/1`,
  )
  assert.equal(body.status, 'final')
  assert.equal(body.conclusion, '双肺未见明显异常。')
  // The name and phone come back from the exam; the ID number only as "masked".
  assert.equal(body.subject.display, '张三')
  const patient = body.contained.find((r: Json) => r.resourceType === 'Patient')
  assert.deepEqual(patient.name, [{ text: '张三' }])
  assert.equal(patient.telecom[0].value, '13800138000')
  assert.equal(patient.identifier[0].value, undefined)
  assert.deepEqual(patient.identifier[0].extension, [
    { url: 'http://hl7.org/fhir/StructureDefinition/data-absent-reason', valueCode: 'masked' },
  ])
  assert.equal(body.text, undefined)

  const report = await world.app.db
    .selectFrom('reports')
    .selectAll()
    .where('id', '=', body.id)
    .executeTakeFirstOrThrow()
  assert.equal(report.findings, '双肺纹理清晰，未见实变影。')
  assert.equal(report.conclusion, '双肺未见明显异常。')
  assert.equal(report.performer, '李医生')
  assert.equal(report.reviewer, '王主任')
  assert.equal(report.code_text, '胸部CT平扫')
  assert.equal(report.effective_at, '2026-11-20T09:30:00+08:00')
  assert.equal(report.issued_at, '2026-11-20T02:05:00.000Z')
  assert.equal(report.resource_id, 'http://hospital.example/report-id|R-0001')
  const exam = await world.app.db
    .selectFrom('exams')
    .selectAll()
    .where('id', '=', report.exam_id)
    .executeTakeFirstOrThrow()
  assert.equal(exam.hospital_id, world.hospitalId)
  assert.equal(exam.study_uid, uid)
  assert.equal(exam.accession_number, 'CT20261120001')
  assert.equal(exam.study_date, '2026-11-20')
  assert.equal(exam.study_time, '09:30:00')
  assert.equal(exam.patient_sex, 'M')
  assert.equal(exam.patient_key, world.app.personalCipher.digest(residentId()))
})

test('the identity is stored only as digests and ciphertext: no row holds the ID, name or phone', async () => {
  const world = await fhirWorld()
  await post(world, world.key, diagnosticReport({ name: '欧阳娜娜', phone: '13912345678' }))
  const rows = JSON.stringify([
    await world.app.db.selectFrom('reports').selectAll().execute(),
    await world.app.db.selectFrom('report_versions').selectAll().execute(),
    await world.app.db.selectFrom('exams').selectAll().execute(),
  ])
  for (const secret of [residentId(), '欧阳娜娜', '13912345678']) {
    assert.equal(rows.includes(secret), false, `${secret} stored in clear`)
  }
})

test('the same identifier again is an update; the same content again is no new version', async () => {
  const world = await fhirWorld()
  const uid = studyUid()
  const first = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, status: 'preliminary' }),
  )
  assert.equal(first.statusCode, 201)
  const id = first.json().id

  const retry = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, status: 'preliminary' }),
  )
  assert.equal(retry.statusCode, 200)
  assert.equal(retry.json().id, id)
  assert.equal(retry.json().meta.versionId, '1')

  const changed = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, status: 'final', conclusion: '右肺上叶小结节，建议随访。' }),
  )
  assert.equal(changed.statusCode, 200)
  assert.equal(changed.json().id, id)
  assert.equal(changed.json().meta.versionId, '2')
  assert.equal(changed.json().conclusion, '右肺上叶小结节，建议随访。')
  const count = (await world.app.db.selectFrom('reports').select('id').execute()).length
  assert.equal(count, 1)
})

test('a final report changes only as amended or corrected, and every version is kept', async () => {
  const world = await fhirWorld()
  const uid = studyUid()
  const created = (await post(world, world.key, diagnosticReport({ studyUid: uid }))).json()

  const sneaky = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, status: 'final', conclusion: '改了但不说' }),
  )
  assert.equal(sneaky.statusCode, 422)
  const [issue] = outcome(sneaky)
  assert.equal(issue!.code, 'business-rule')
  assert.equal(issue!.diagnostics, REPORT_FINAL_CHANGE)
  assert.deepEqual(issue!.expression, ['DiagnosticReport.status'])
  for (const status of ['preliminary', 'cancelled']) {
    const refused = await post(world, world.key, diagnosticReport({ studyUid: uid, status }))
    assert.equal(refused.statusCode, 422, status)
  }

  const amended = await post(
    world,
    world.key,
    diagnosticReport({
      studyUid: uid,
      status: 'amended',
      conclusion: '右肺上叶磨玻璃结节（修订）',
    }),
  )
  assert.equal(amended.statusCode, 200, amended.body)
  assert.equal(amended.json().meta.versionId, '2')
  const corrected = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, status: 'corrected', conclusion: '右肺上叶磨玻璃结节，8mm' }),
  )
  assert.equal(corrected.json().meta.versionId, '3')

  const history = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${created.id}/_history`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(history.statusCode, 200)
  const bundle = history.json()
  assert.equal(bundle.type, 'history')
  assert.equal(bundle.total, 3)
  assert.deepEqual(
    bundle.entry.map((e: Json) => [
      e.resource.meta.versionId,
      e.resource.status,
      e.resource.conclusion,
    ]),
    [
      ['3', 'corrected', '右肺上叶磨玻璃结节，8mm'],
      ['2', 'amended', '右肺上叶磨玻璃结节（修订）'],
      ['1', 'final', '双肺未见明显异常。'],
    ],
  )
  const v1 = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${created.id}/_history/1`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(v1.statusCode, 200)
  assert.equal(v1.json().conclusion, '双肺未见明显异常。')
  assert.equal(v1.headers.etag, 'W/"1"')
  const versions = await world.app.db
    .selectFrom('report_versions')
    .select(['version', 'status'])
    .where('report_id', '=', created.id)
    .orderBy('version')
    .execute()
  assert.deepEqual(
    versions.map((v: Json) => `${v.version}:${v.status}`),
    ['1:final', '2:amended', '3:corrected'],
  )
  const missing = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${created.id}/_history/9`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(missing.statusCode, 404)
  outcome(missing)
})

test('PUT of what was read (masked ID) keeps the identity; If-Match guards against lost updates', async () => {
  const world = await fhirWorld()
  const created = (await post(world, world.key, diagnosticReport({ status: 'preliminary' }))).json()
  const read = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(read.statusCode, 200)
  assert.equal(read.headers.etag, 'W/"1"')
  const edited = { ...read.json(), status: 'final', conclusion: '终审：未见异常' }

  const put = await world.app.inject({
    method: 'PUT',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key, { 'if-match': 'W/"1"' }),
    payload: JSON.stringify(edited),
  })
  assert.equal(put.statusCode, 200, put.body)
  assert.equal(put.json().meta.versionId, '2')
  assert.equal(put.json().subject.display, '张三')
  const exam = await world.app.db
    .selectFrom('exams')
    .select(['patient_key'])
    .executeTakeFirstOrThrow()
  assert.equal(exam.patient_key, world.app.personalCipher.digest(residentId()))

  const stale = await world.app.inject({
    method: 'PUT',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key, { 'if-match': 'W/"1"' }),
    payload: JSON.stringify({ ...edited, status: 'amended', conclusion: '另一处修改' }),
  })
  assert.equal(stale.statusCode, 412)
  assert.equal(outcome(stale)[0]!.code, 'conflict')

  const mismatch = await world.app.inject({
    method: 'PUT',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key),
    payload: JSON.stringify({ ...edited, id: 'something-else' }),
  })
  assert.equal(mismatch.statusCode, 400)
  assert.deepEqual(outcome(mismatch)[0]!.expression, ['DiagnosticReport.id'])

  const unknown = await world.app.inject({
    method: 'PUT',
    url: '/fhir/DiagnosticReport/no-such-report',
    headers: fhirHeaders(world.key),
    payload: JSON.stringify({ ...edited, id: 'no-such-report' }),
  })
  assert.equal(unknown.statusCode, 404)
  assert.equal(outcome(unknown)[0]!.code, 'not-found')
})

test('bad inputs: 400 for what is no DiagnosticReport, 422 naming every wrong field', async () => {
  const world = await fhirWorld()
  const notJson = await post(world, world.key, '{"resourceType": ')
  assert.equal(notJson.statusCode, 400)
  assert.equal(outcome(notJson)[0]!.diagnostics, '请求内容不是有效的 JSON')

  const wrongType = await post(world, world.key, { resourceType: 'Observation' })
  assert.equal(wrongType.statusCode, 400)
  assert.match(outcome(wrongType)[0]!.diagnostics, /resourceType 应为 DiagnosticReport/)

  const array = await post(world, world.key, [])
  assert.equal(array.statusCode, 400)
  outcome(array)

  const report = diagnosticReport() as Json
  const broken = {
    ...report,
    status: 'done',
    conlusion: '拼错的字段',
    effectiveDateTime: '2026-11-20 09:30',
    contained: [
      {
        ...report.contained[0],
        identifier: [{ system: 'urn:oid:2.16.156.10011.1.1', value: '110101199003071234' }],
        address: [{ text: '某市某路 1 号' }],
      },
    ],
  }
  const invalid = await post(world, world.key, broken)
  assert.equal(invalid.statusCode, 422)
  const issues = outcome(invalid)
  const expressions = issues.map((issue) => issue.expression?.[0])
  assert.ok(expressions.includes('DiagnosticReport.status'), JSON.stringify(issues))
  assert.ok(expressions.includes('DiagnosticReport.conlusion'), JSON.stringify(issues))
  assert.ok(expressions.includes('DiagnosticReport.effectiveDateTime'), JSON.stringify(issues))
  assert.ok(expressions.includes('DiagnosticReport.contained[0].address'), JSON.stringify(issues))
  for (const issue of issues) assert.match(issue.diagnostics, /[\u4e00-\u9fff]/)

  // The checks after the shape: a wrong ID check digit, no name, no study.
  const noStudy: Json = { ...report, imagingStudy: [], subject: { reference: '#pat' } }
  noStudy.contained = [
    {
      resourceType: 'Patient',
      id: 'pat',
      identifier: [{ system: 'urn:oid:2.16.156.10011.1.1', value: '110101199003071234' }],
    },
  ]
  const semantic = await post(world, world.key, noStudy)
  assert.equal(semantic.statusCode, 422)
  const found = outcome(semantic)
  assert.deepEqual(found.map((issue) => issue.expression?.[0]).sort(), [
    'DiagnosticReport.contained[0].identifier[0].value',
    'DiagnosticReport.imagingStudy',
    'DiagnosticReport.subject',
  ])
  assert.ok(
    found.some((issue) => /校验位/.test(issue.diagnostics)),
    JSON.stringify(found),
  )

  const badUid = diagnosticReport() as Json
  badUid.imagingStudy = [{ identifier: { system: 'urn:dicom:uid', value: 'urn:oid:1.2.abc' } }]
  const uid = await post(world, world.key, badUid)
  assert.equal(uid.statusCode, 422)
  assert.deepEqual(outcome(uid)[0]!.expression, [
    'DiagnosticReport.imagingStudy[0].identifier.value',
  ])

  const pdf = diagnosticReport() as Json
  pdf.presentedForm = [{ contentType: 'application/pdf', data: 'JVBERi0=' }]
  const embedded = await post(world, world.key, pdf)
  assert.equal(embedded.statusCode, 422)
  assert.deepEqual(outcome(embedded)[0]!.expression, ['DiagnosticReport.presentedForm[0].data'])

  const xml = await world.app.inject({
    method: 'POST',
    url: '/fhir/DiagnosticReport',
    headers: { ...fhirHeaders(world.key), 'content-type': 'application/fhir+xml' },
    payload: '<DiagnosticReport/>',
  })
  assert.equal(xml.statusCode, 415)
  assert.match(outcome(xml)[0]!.diagnostics, /application\/fhir\+json/)

  const nul = diagnosticReport({ conclusion: 'a\u0000b' })
  const withNul = await post(world, world.key, nul)
  assert.equal(withNul.statusCode, 400)
  outcome(withNul)

  const count = (await world.app.db.selectFrom('reports').select('id').execute()).length
  assert.equal(count, 0)
})

test('plain application/json with a charset is accepted too', async () => {
  const world = await fhirWorld()
  const response = await post(world, world.key, diagnosticReport(), {
    'content-type': 'application/json; charset=utf-8',
    accept: 'application/json',
  })
  assert.equal(response.statusCode, 201, response.body)
})

test('without a valid hospital key: 401 OperationOutcome (login) with WWW-Authenticate', async () => {
  const world = await fhirWorld()
  for (const authorization of [undefined, 'Bearer not-a-real-key-0000', `Basic ${world.key}`]) {
    const headers: Json = { 'content-type': 'application/fhir+json' }
    if (authorization) headers.authorization = authorization
    for (const [method, url] of [
      ['POST', '/fhir/DiagnosticReport'],
      ['GET', '/fhir/DiagnosticReport?identifier=R-0001'],
      ['GET', '/fhir/DiagnosticReport/x'],
    ] as const) {
      const response = await world.app.inject({
        method,
        url,
        headers,
        ...(method === 'POST' ? { payload: JSON.stringify(diagnosticReport()) } : {}),
      })
      assert.equal(response.statusCode, 401, `${method} ${url} ${authorization}`)
      const [issue] = outcome(response)
      assert.equal(issue!.code, 'login')
      assert.match(issue!.diagnostics, /医院 API 密钥/)
      assert.equal(response.headers['www-authenticate'], 'Bearer realm="hospital"')
    }
  }
})

test("another hospital's key can neither read, change nor find a report", async () => {
  const world = await fhirWorld()
  const uid = studyUid()
  const created = (await post(world, world.key, diagnosticReport({ studyUid: uid }))).json()
  const other = world.otherKey

  for (const url of [
    `/fhir/DiagnosticReport/${created.id}`,
    `/fhir/DiagnosticReport/${created.id}/_history`,
    `/fhir/DiagnosticReport/${created.id}/_history/1`,
  ]) {
    const response = await world.app.inject({ method: 'GET', url, headers: fhirHeaders(other) })
    assert.equal(response.statusCode, 404, url)
    assert.equal(outcome(response)[0]!.code, 'not-found')
  }
  const put = await world.app.inject({
    method: 'PUT',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(other),
    payload: JSON.stringify({
      ...diagnosticReport({ studyUid: uid, status: 'amended', conclusion: '篡改' }),
      id: created.id,
    }),
  })
  assert.equal(put.statusCode, 404)
  const search = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport?patient.identifier=${residentId()}`,
    headers: fhirHeaders(other),
  })
  assert.equal(search.json().total, 0)

  // The same identifier and study from the other hospital is its own report and exam.
  const own = await post(
    world,
    other,
    diagnosticReport({ studyUid: uid, conclusion: '第二医院的报告' }),
  )
  assert.equal(own.statusCode, 201)
  assert.notEqual(own.json().id, created.id)
  const first = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(first.json().conclusion, '双肺未见明显异常。')
  assert.equal(first.json().meta.versionId, '1')
  const exams = await world.app.db.selectFrom('exams').select(['hospital_id']).execute()
  assert.equal(exams.length, 2)
})

test('search: identifier, accession, patient, status, date, paging; unknown parameters refused', async () => {
  const world = await fhirWorld()
  const other = residentId('19851212', 456)
  for (let i = 1; i <= 5; i += 1) {
    const created = await post(
      world,
      world.key,
      diagnosticReport({
        identifier: `R-${i}`,
        accession: `A-${i}`,
        idNumber: i <= 3 ? residentId() : other,
        name: i <= 3 ? '张三' : '李四',
        status: i % 2 ? 'final' : 'preliminary',
        effective: `2026-11-0${i}T09:00:00+08:00`,
      }),
    )
    assert.equal(created.statusCode, 201)
  }
  const search = async (query: string) => {
    const response = await world.app.inject({
      method: 'GET',
      url: `/fhir/DiagnosticReport?${query}`,
      headers: fhirHeaders(world.key),
    })
    assert.equal(response.statusCode, 200, `${query}: ${response.body}`)
    const bundle = response.json()
    assert.equal(bundle.type, 'searchset')
    return bundle as Json
  }
  const ids = (bundle: Json) => bundle.entry.map((e: Json) => e.resource.identifier[0].value).sort()

  assert.deepEqual(ids(await search('identifier=R-2')), ['R-2'])
  assert.deepEqual(ids(await search('identifier=http://hospital.example/report-id|R-2,R-4')), [
    'R-2',
    'R-4',
  ])
  assert.deepEqual(ids(await search('identifier=other-system|R-2')), [])
  assert.deepEqual(ids(await search('identifier=A-3')), ['R-3'])
  assert.deepEqual(ids(await search(`patient.identifier=${other}`)), ['R-4', 'R-5'])
  assert.deepEqual(
    ids(await search(`patient.identifier=urn:oid:2.16.156.10011.1.1|${residentId()}&status=final`)),
    ['R-1', 'R-3'],
  )
  assert.deepEqual(ids(await search('date=ge2026-11-02&date=lt2026-11-04')), ['R-2', 'R-3'])
  assert.deepEqual(ids(await search('date=2026-11-05')), ['R-5'])
  assert.equal((await search('_summary=count')).total, 5)
  assert.equal((await search('_summary=count')).entry.length, 0)

  const page1 = await search('_sort=date&_count=2')
  assert.equal(page1.total, 5)
  assert.deepEqual(ids(page1), ['R-1', 'R-2'])
  const next = page1.link.find((l: Json) => l.relation === 'next').url as string
  const page2 = await search(next.split('?')[1]!)
  assert.deepEqual(ids(page2), ['R-3', 'R-4'])
  assert.ok(page2.link.some((l: Json) => l.relation === 'previous'))
  // Entries are full resources with absolute URLs.
  assert.match(page1.entry[0].fullUrl, /^http:\/\/localhost:80\/fhir\/DiagnosticReport\/[\w-]+$/)
  assert.equal(page1.entry[0].resource.subject.display, '张三')

  for (const [query, pattern] of [
    ['identifer=R-1', /不支持的查询参数 identifer/],
    ['date=2026/11/01', /date 应为 YYYY-MM-DD/],
    ['status=done', /status 取值无效/],
    ['patient.identifier=12345', /patient\.identifier/],
    ['patient.identifier=http://mrn|12345', /居民身份证号/],
    ['_count=abc', /_count/],
    ['_sort=name', /_sort/],
  ] as const) {
    const response = await world.app.inject({
      method: 'GET',
      url: `/fhir/DiagnosticReport?${query}`,
      headers: fhirHeaders(world.key),
    })
    assert.equal(response.statusCode, 400, query)
    assert.match(outcome(response)[0]!.diagnostics, pattern, query)
  }
})

test('metadata: the CapabilityStatement, public, in fhir+json', async () => {
  const world = await fhirWorld()
  const response = await world.app.inject({ method: 'GET', url: '/fhir/metadata' })
  assert.equal(response.statusCode, 200)
  assert.match(String(response.headers['content-type']), /^application\/fhir\+json/)
  const body = response.json()
  assert.equal(body.resourceType, 'CapabilityStatement')
  assert.equal(body.fhirVersion, '4.0.1')
  const resource = body.rest[0].resource[0]
  assert.equal(resource.type, 'DiagnosticReport')
  assert.deepEqual(resource.interaction.map((i: Json) => i.code).sort(), [
    'create',
    'history-instance',
    'read',
    'search-type',
    'update',
    'vread',
  ])
})

test('other paths, types, methods and formats answer OperationOutcomes', async () => {
  const world = await fhirWorld()
  const patient = await world.app.inject({
    method: 'GET',
    url: '/fhir/Patient/1',
    headers: { ...fhirHeaders(world.key), accept: 'text/html' },
  })
  assert.equal(patient.statusCode, 406)
  outcome(patient)
  const patientJson = await world.app.inject({
    method: 'GET',
    url: '/fhir/Patient/1',
    headers: fhirHeaders(world.key),
  })
  assert.equal(patientJson.statusCode, 404)
  assert.match(outcome(patientJson)[0]!.diagnostics, /只接收 DiagnosticReport.*Patient/)
  const created = (await post(world, world.key, diagnosticReport())).json()
  const del = await world.app.inject({
    method: 'DELETE',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(del.statusCode, 405)
  assert.match(outcome(del)[0]!.diagnostics, /amended/)
  const xml = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${created.id}?_format=xml`,
    headers: fhirHeaders(world.key),
  })
  assert.equal(xml.statusCode, 406)
  outcome(xml)
  const minimal = await post(world, world.key, diagnosticReport({ identifier: 'R-min' }), {
    prefer: 'return=minimal',
  })
  assert.equal(minimal.statusCode, 201)
  assert.equal(minimal.body, '')
  assert.match(String(minimal.headers.location), /\/_history\/1$/)
})

test('parallel first pushes of one report make one report, whatever the database', async () => {
  const world = await fhirWorld()
  const uid = studyUid()
  const responses = await Promise.all(
    Array.from({ length: 8 }, () => post(world, world.key, diagnosticReport({ studyUid: uid }))),
  )
  const statuses = responses.map((r) => r.statusCode).sort()
  assert.deepEqual(
    statuses,
    [200, 200, 200, 200, 200, 200, 200, 201],
    responses.map((r) => r.body).join('\n'),
  )
  assert.equal(new Set(responses.map((r) => r.json().id)).size, 1)
  const versions = await world.app.db.selectFrom('report_versions').select('version').execute()
  assert.equal(versions.length, 1)

  // Parallel amendments of one report: each is a version of its own, none lost.
  const amendments = await Promise.all(
    Array.from({ length: 5 }, (_, i) =>
      post(
        world,
        world.key,
        diagnosticReport({ studyUid: uid, status: 'amended', conclusion: `修订 ${i}` }),
      ),
    ),
  )
  for (const response of amendments) assert.equal(response.statusCode, 200, response.body)
  const after = await world.app.db
    .selectFrom('report_versions')
    .select('version')
    .orderBy('version')
    .execute()
  assert.deepEqual(
    after.map((v: Json) => v.version),
    [1, 2, 3, 4, 5, 6],
  )
})

test('with the H5 app served, unknown /fhir paths stay OperationOutcomes, never index.html', async () => {
  const webRoot = mkdtempSync(path.join(os.tmpdir(), 'fhir-web-'))
  writeFileSync(path.join(webRoot, 'index.html'), '<!doctype html><title>app</title>')
  const app = await buildTestApp({ webRoot })
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'
  for (const url of ['/fhir', '/fhir/', '/fhir/Patient/1', '/fhir/DiagnosticReport/x/y/z']) {
    const response = await app.inject({ method: 'GET', url, headers: { accept: browser } })
    assert.equal(response.statusCode, 404, url)
    assert.equal(
      outcome(response)[0]!.code,
      url.includes('Patient') ? 'not-supported' : 'not-found',
    )
  }
  const post = await app.inject({
    method: 'POST',
    url: '/fhir/Observation',
    headers: { 'content-type': 'application/fhir+json' },
    payload: '{}',
  })
  assert.equal(post.statusCode, 404)
  outcome(post)
  // The app itself is still served elsewhere.
  const page = await app.inject({
    method: 'GET',
    url: '/pages/index/index',
    headers: { accept: browser },
  })
  assert.equal(page.statusCode, 200)
  assert.match(page.body, /<title>app<\/title>/)
})

test('retries stay retries: after a STOW renamed the exam, and when a read is PUT back as it was', async () => {
  const world = await fhirWorld()
  const uid = studyUid()
  const created = await post(world, world.key, diagnosticReport({ studyUid: uid }))
  const id = created.json().id
  assert.equal(JSON.stringify(created.json()).includes('pushed-identity'), false)

  // The images arrive later with the DICOM name in pinyin: the exam follows the later push.
  await upsertHospitalExam(
    world.app.db,
    world.app.personalCipher,
    { hospitalId: world.hospitalId, studyUid: uid, patient: { name: 'Zhang^San' } },
    world.app.now(),
  )
  const retry = await post(world, world.key, diagnosticReport({ studyUid: uid }))
  assert.equal(retry.statusCode, 200, retry.body)
  assert.equal(retry.json().meta.versionId, '1')

  const read = await world.app.inject({
    method: 'GET',
    url: `/fhir/DiagnosticReport/${id}`,
    headers: fhirHeaders(world.key),
  })
  const putBack = await world.app.inject({
    method: 'PUT',
    url: `/fhir/DiagnosticReport/${id}`,
    headers: fhirHeaders(world.key),
    payload: read.body,
  })
  assert.equal(putBack.statusCode, 200, putBack.body)
  assert.equal(putBack.json().meta.versionId, '1')

  // A new phone number for a final report is a change like any other: it needs amended.
  const newPhone = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, phone: '13700137000' }),
  )
  assert.equal(newPhone.statusCode, 422)
  const amended = await post(
    world,
    world.key,
    diagnosticReport({ studyUid: uid, phone: '13700137000', status: 'amended' }),
  )
  assert.equal(amended.statusCode, 200)
  assert.equal(amended.json().meta.versionId, '2')
  assert.equal(amended.json().contained[0].telecom[0].value, '13700137000')
})

test("PUT cannot change a report's identifier, and contained takes only Patient, Practitioner, Organization", async () => {
  const world = await fhirWorld()
  const created = (await post(world, world.key, diagnosticReport({ status: 'preliminary' }))).json()
  const renamed = await world.app.inject({
    method: 'PUT',
    url: `/fhir/DiagnosticReport/${created.id}`,
    headers: fhirHeaders(world.key),
    payload: JSON.stringify({ ...diagnosticReport({ identifier: 'R-other' }), id: created.id }),
  })
  assert.equal(renamed.statusCode, 422)
  assert.deepEqual(outcome(renamed)[0]!.expression, ['DiagnosticReport.identifier'])

  const report = diagnosticReport() as Json
  report.contained.push({ resourceType: 'Observation', id: 'obs' })
  const contained = await post(world, world.key, report)
  assert.equal(contained.statusCode, 422)
  const [issue] = outcome(contained)
  assert.deepEqual(issue!.expression, ['DiagnosticReport.contained[1].resourceType'])
  assert.match(issue!.diagnostics, /只接受 Patient、Practitioner、Organization/)
})
