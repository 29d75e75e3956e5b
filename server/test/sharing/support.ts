import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import path from 'node:path'
import type { FastifyInstance } from 'fastify'
import { buildApp } from '../../src/app'
import type { Config } from '../../src/config'
import { issueHospitalKey } from '../../src/domain/hospitals'
import { bindIdCard } from '../../src/domain/profile/id-cards'
import { ingestFiles } from '../../src/domain/ingest/ingest'
import type { Providers } from '../../src/providers'
import { freshUid, ID_A, personInstance } from '../dicomweb/read-support'
import { Clock, signUp, type TestUser } from '../domain/profile/support'
import { diagnosticReport, fhirHeaders } from '../fhir/support'
import { closeAfter, testConfig } from '../helpers'

/*
 * Shared by the sharing tests (not a test file): the whole app on a hand-moved clock, a hospital,
 * alice (bound to ID_A, so hospital exams pushed for 张三 are hers) with one study and its report,
 * bob (an expert account) and carol (a stranger).
 */

export interface Study {
  study: string
  series: string
  sop: string
  examId: string
  reportId: string
}

export interface SharingWorld {
  app: FastifyInstance
  clock: Clock
  /** The hospital's API key (FHIR and STOW-RS pushes). */
  key: string
  alice: TestUser
  bob: TestUser
  carol: TestUser
  study: Study
  pushStudy(): Promise<Study>
  call(
    method: string,
    url: string,
    token?: string,
    payload?: unknown,
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are checked field by field
  ): Promise<{ status: number; data: any; error: string | null }>
  frame(s: Study, token: string): Promise<{ status: number; error: string | null; cache?: string }>
}

export async function sharingWorld(
  overrides: Partial<Config> = {},
  providers: Partial<Providers> = {},
): Promise<SharingWorld> {
  const clock = new Clock()
  const app = await buildApp(
    testConfig({ uploadDir: path.join(os.tmpdir(), `sharing-${randomUUID()}`), ...overrides }),
    { now: clock.now, providers },
  )
  closeAfter(() => app.close())
  await app.db
    .insertInto('hospitals')
    .values({
      id: 'h-share',
      name: '示例市分享医院',
      level: '三级甲等',
      province: '北京市',
      city: '北京市',
      address: '示例路 1 号（演示数据）',
      sort_order: 0,
      created_at: clock.now().toISOString(),
      region_code: '110101',
      region_name: '北京市东城区',
      ai_reporting: 0,
      demo: 1,
    })
    .execute()
  const key = (await issueHospitalKey(app.db, 'h-share', clock.now())).key
  const alice = await signUp(app.db, clock.now())
  const bob = await signUp(app.db, clock.now(), { role: 'expert' })
  const carol = await signUp(app.db, clock.now())
  await bindIdCard(
    app.db,
    app.personalCipher,
    alice.user.id,
    { realName: '张三', idCard: ID_A },
    clock.now(),
  )
  const ctx = { db: app.db, store: app.store, cipher: app.personalCipher, now: clock.now }

  async function pushStudy(): Promise<Study> {
    const uids = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await ingestFiles(ctx, { kind: 'hospital', hospitalId: 'h-share' }, [
      personInstance({ ...uids, idNumber: ID_A, name: '张三' }),
    ])
    const fhir = await app.inject({
      method: 'POST',
      url: '/fhir/DiagnosticReport',
      headers: fhirHeaders(key),
      payload: diagnosticReport({
        idNumber: ID_A,
        name: '张三',
        studyUid: uids.study,
        identifier: `R-${randomUUID()}`,
        conclusion: '分享测试结论',
      }),
    })
    assert.ok([200, 201].includes(fhir.statusCode), fhir.body)
    const exam = await app.db
      .selectFrom('exams')
      .select('id')
      .where('study_uid', '=', uids.study)
      .executeTakeFirstOrThrow()
    const report = await app.db
      .selectFrom('reports')
      .select('id')
      .where('exam_id', '=', exam.id)
      .executeTakeFirstOrThrow()
    return { ...uids, examId: exam.id, reportId: report.id }
  }

  const call: SharingWorld['call'] = async (method, url, token, payload) => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    const body = res.json() as { data: unknown; error: string | null }
    return { status: res.statusCode, data: body.data, error: body.error }
  }

  const frame: SharingWorld['frame'] = async (s, token) => {
    const res = await app.inject({
      url: `/dicomweb/studies/${s.study}/series/${s.series}/instances/${s.sop}/frames/1`,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
      },
    })
    let error: string | null = null
    if (res.statusCode !== 200) {
      try {
        error = (res.json() as { error: string | null; message?: string }).error
      } catch {
        error = null
      }
    }
    const cache = res.headers['cache-control']
    return { status: res.statusCode, error, ...(typeof cache === 'string' ? { cache } : {}) }
  }

  return { app, clock, key, alice, bob, carol, study: await pushStudy(), pushStudy, call, frame }
}
