import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { EXAM_NOT_FOUND } from '../../src/domain/records/access'
import { bearer } from '../domain/profile/support'
import type { ReadWorld } from '../dicomweb/read-support'
import {
  askWith,
  assertRefusedWith,
  bodyOf,
  type CallerName,
  type Fixture,
  fill,
  matrixWorld,
  NOT_RECORDS,
  operations,
  RECORD_PARAM_NAMES,
  recordParams,
  type Request,
  THROUGH_GRANT,
  withQuery,
} from './matrix-support'

/*
 * The authorisation matrix (issue 9, "security that is proved"): every operation of /openapi.json
 * that names a record, and every DICOMweb and FHIR read, asked by every kind of caller about the
 * records of one patient (alice). Only the right callers get data: 0 leaks. The others are answered
 * 401, 403 or 404, and a stranger is answered exactly as for a record that does not exist, so the
 * answer never confirms that a record exists.
 *
 * An operation added to the API with a path parameter this file does not know FAILS the test until
 * it is put in the matrix: nothing that names a record goes unchecked.
 *
 * Callers today: the owner, another patient, no token, the key of the hospital that pushed the
 * study, another hospital's key. Grants and family members (issue 9) add theirs here.
 */

describe('the authorisation matrix: only the right callers get a record', async () => {
  let world: ReadWorld
  let f: Fixture
  let tokens: Record<CallerName, string | undefined>
  /** Strings that only alice's records contain: none may appear in another caller's answer. */
  let secrets: string[]

  before(async () => {
    ;({ world, f, tokens, secrets } = await matrixWorld())
  })

  async function ask(caller: CallerName, request: Request) {
    return askWith(world, tokens[caller], request)
  }

  function assertRefused(
    caller: CallerName,
    request: Request,
    response: { statusCode: number; body: string },
  ) {
    assertRefusedWith(secrets, caller, request, response)
  }

  test('every operation that names a record is in the matrix', async () => {
    const unknown = (await operations(world)).filter(([, path]) => {
      const params = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!)
      return (
        params.length > 0 && !NOT_RECORDS[path] && !params.every((p) => RECORD_PARAM_NAMES.has(p))
      )
    })
    assert.deepEqual(unknown, [], 'add these operations to the authorisation matrix')
  })

  test('the API (openapi): the owner reads her records; nobody else gets any, nor learns they exist', async () => {
    const ops = (await operations(world)).filter(
      ([, path]) =>
        !THROUGH_GRANT.has(path) &&
        !NOT_RECORDS[path] &&
        [...path.matchAll(/\{(\w+)\}/g)].some((m) => RECORD_PARAM_NAMES.has(m[1]!)),
    )
    assert.ok(ops.length >= 20, `only ${ops.length} record operations found`)
    let asked = 0
    for (const [method, path] of ops) {
      for (const params of recordParams(f, path)) {
        const request: Request = {
          method: method.toUpperCase(),
          url: withQuery(path, fill(path, params)),
          ...bodyOf(method, path, f),
        }
        if (method === 'get') {
          const own = await ask('owner', request)
          assert.equal(own.statusCode, 200, `owner ${request.url}: ${own.body.slice(0, 200)}`)
        }
        // The same request about a record that does not exist: a stranger's answer must equal it.
        const missing: Request = {
          ...request,
          url: withQuery(
            path,
            fill(path, Object.fromEntries(Object.keys(params).map((k) => [k, randomUUID()]))),
          ),
        }
        for (const caller of ['stranger', 'anonymous', 'hospitalOwn', 'hospitalOther'] as const) {
          const answer = await ask(caller, request)
          assertRefused(caller, request, answer)
          const absent = await ask(caller, missing)
          assert.equal(
            answer.statusCode,
            absent.statusCode,
            `${caller} ${request.method} ${request.url}: status differs from a missing record`,
          )
          assert.equal(
            (answer.json() as { error?: unknown }).error,
            (absent.json() as { error?: unknown }).error,
            `${caller} ${request.method} ${request.url}: message differs from a missing record`,
          )
          asked += 1
        }
      }
    }
    assert.ok(asked > 80)
  })

  test('a record’s file is never served as public media or as a feedback picture, even to its owner', async () => {
    for (const url of [`/media/${f.photo}`, `/main/feedback/images/${f.photo}`]) {
      for (const caller of ['owner', 'stranger'] as const) {
        const answer = await ask(caller, { method: 'GET', url })
        assert.equal(answer.statusCode, 404, `${caller} ${url}`)
        for (const secret of secrets) assert.ok(!answer.body.includes(secret), `${caller} ${url}`)
      }
    }
  })

  test('nothing the others tried changed the owner’s records', async () => {
    const own = (url: string) =>
      world.app.inject({ method: 'GET', url, headers: bearer(world.alice.token) })
    const exam = await own(`/main/exams/${f.uploadExam}`)
    assert.equal(exam.statusCode, 200)
    const detail = (exam.json() as { data: { title: string; files: { id: string }[] } }).data
    assert.equal(detail.title.includes('陌生人'), false)
    assert.deepEqual(
      detail.files.map((file) => file.id),
      [f.photo],
    )
    const report = await own(`/main/reports/${f.report}`)
    const data = (report.json() as { data: { private: boolean; archived: boolean } }).data
    assert.deepEqual([data.private, data.archived], [false, false])
    const marks = await own(`/main/exams/${f.hospitalExam}/bookmarks`)
    assert.deepEqual(
      (marks.json() as { data: { id: string; note: string }[] }).data.map((m) => m.note),
      ['结节'],
    )
    const session = await own(`/main/dicom-upload/${f.uploadSession}`)
    assert.equal(session.statusCode, 200)
    const instances = await own(`/main/exams/${f.uploadExam}/series/${f.uploadSeries}/instances`)
    assert.equal((instances.json() as { data: unknown[] }).data.length, 1)
    const reports = await own('/main/reports')
    assert.ok(reports.body.includes(f.report), 'the report is still in her list')
  })

  test('lists and searches: another patient’s answers never contain her records', async () => {
    for (const [method, path] of await operations(world)) {
      if (method !== 'get' || path.includes('{')) continue
      const answer = await ask('stranger', { method: 'GET', url: path })
      for (const secret of secrets) {
        assert.ok(!answer.body.includes(secret), `stranger GET ${path} leaked ${secret}`)
      }
    }
    const studies = await ask('stranger', { method: 'GET', url: '/dicomweb/studies' })
    assert.equal(studies.statusCode === 200 || studies.statusCode === 204, true)
    for (const secret of secrets) assert.ok(!studies.body.includes(secret))
  })

  test('DICOMweb and FHIR: the owner and the pushing hospital read; no one else', async () => {
    const s = f.study
    const u = f.uploadStudy
    const instance = (x: typeof s) =>
      `/dicomweb/studies/${x.study}/series/${x.series}/instances/${x.sop}`
    const reads = (x: typeof s) => [
      {
        url: `/dicomweb/studies/${x.study}`,
        accept: 'multipart/related; type="application/dicom"',
      },
      {
        url: `/dicomweb/studies/${x.study}/series/${x.series}`,
        accept: 'multipart/related; type="application/dicom"',
      },
      { url: instance(x), accept: 'multipart/related; type="application/dicom"' },
      { url: `/dicomweb/studies/${x.study}/metadata`, accept: 'application/dicom+json' },
      {
        url: `/dicomweb/studies/${x.study}/series/${x.series}/metadata`,
        accept: 'application/dicom+json',
      },
      { url: `${instance(x)}/metadata`, accept: 'application/dicom+json' },
      {
        url: `${instance(x)}/frames/1`,
        accept: 'multipart/related; type="application/octet-stream"',
      },
      { url: `${instance(x)}/rendered`, accept: 'image/jpeg' },
      { url: `${instance(x)}/thumbnail`, accept: 'image/jpeg' },
      { url: `${instance(x)}/frames/1/rendered`, accept: 'image/jpeg' },
      { url: `${instance(x)}/frames/1/thumbnail`, accept: 'image/jpeg' },
      { url: `/dicomweb/studies/${x.study}/series/${x.series}/thumbnail`, accept: 'image/jpeg' },
      { url: `/dicomweb/studies/${x.study}/thumbnail`, accept: 'image/jpeg' },
      { url: `/dicomweb/studies/${x.study}/series`, accept: 'application/dicom+json' },
      { url: `/dicomweb/studies/${x.study}/instances`, accept: 'application/dicom+json' },
      {
        url: `/dicomweb/studies/${x.study}/series/${x.series}/instances`,
        accept: 'application/dicom+json',
      },
    ]
    const cases: { url: string; accept: string; allowed: CallerName[] }[] = [
      ...reads(s).map((r) => ({ ...r, allowed: ['owner', 'hospitalOwn'] as CallerName[] })),
      // A patient's own upload is never a hospital's.
      ...reads(u).map((r) => ({ ...r, allowed: ['owner'] as CallerName[] })),
    ]
    for (const c of cases) {
      for (const caller of Object.keys(tokens) as CallerName[]) {
        const request = { method: 'GET', url: c.url, headers: { accept: c.accept } }
        const answer = await ask(caller, request)
        if (c.allowed.includes(caller)) {
          assert.equal(answer.statusCode, 200, `${caller} ${c.url}: ${answer.body.slice(0, 200)}`)
          continue
        }
        // QIDO below a study answers an empty 200/204 to whoever cannot see the study.
        if (/\/(series|instances)$/.test(c.url) && [200, 204].includes(answer.statusCode)) {
          assert.ok(['', '[]'].includes(answer.body.trim()), `${caller} ${c.url}: ${answer.body}`)
          continue
        }
        assertRefused(caller, request, answer)
        if (answer.statusCode === 404 && caller === 'stranger') {
          assert.ok(answer.body.includes(EXAM_NOT_FOUND) || answer.body.length < 400)
        }
      }
    }
    // The hospital's FHIR read of its own report; patients read reports through the main API.
    const fhirRead = { method: 'GET', url: `/fhir/DiagnosticReport/${f.report}` }
    for (const caller of Object.keys(tokens) as CallerName[]) {
      const answer = await ask(caller, {
        ...fhirRead,
        headers: { accept: 'application/fhir+json' },
      })
      if (caller === 'hospitalOwn') assert.equal(answer.statusCode, 200, answer.body)
      else assertRefused(caller, fhirRead, answer)
    }
  })
})
