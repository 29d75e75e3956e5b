import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { test } from 'node:test'
import { manage, aiWorld, waitForAnalysis } from './support'

/*
 * "An unsigned AI result is never served to the patient" (issue 23), proved by walking the API: every
 * GET operation of /openapi.json, with its path parameters filled with this patient's exam, series,
 * consultation and grant, asked by the patient, by her family manager and by the consultation's
 * expert. No answer but the expert's drafts call carries the draft's text, its labels or its
 * computed numbers. An operation added later is walked too, without editing this file.
 */

const DRAFTS = '/main/expert/consultations/{consultationId}/ai-drafts'

test('no operation but the expert’s drafts serves the AI result, to anybody', async () => {
  const { world, asker, doctor, examId, consultationId, grantId } = await aiWorld()
  const manager = await manage(world, asker)
  const applied = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`, {})
  assert.equal(applied.status, 200, applied.error ?? '')
  assert.equal((await waitForAnalysis(world, asker, examId)).analysis.state, 'done')

  const drafts = await world.call(
    doctor,
    'GET',
    `/main/expert/consultations/${consultationId}/ai-drafts`,
  )
  assert.equal(drafts.status, 200)
  const draft = drafts.data[0] as {
    values: Record<string, string>
    computed: { label: string; value: string }[]
  }
  const secrets = [
    ...Object.values(draft.values),
    ...draft.computed.map((c) => c.label),
    ...draft.computed.map((c) => c.value).filter((v) => v.length >= 4),
  ]
  assert.ok(secrets.length >= 6, secrets.join(' | '))

  const series = await world.app.db
    .selectFrom('series')
    .select('id')
    .where('exam_id', '=', examId)
    .executeTakeFirstOrThrow()
  const params: Record<string, string> = {
    examId,
    seriesId: series.id,
    consultationId,
    grantId,
    personId: asker.user.id,
    memberId: asker.user.id,
  }
  const doc = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, unknown>>
  }
  const gets = Object.entries(doc.paths)
    .filter(([, ops]) => 'get' in ops)
    .map(([path]) => path)
  assert.ok(gets.length > 60, `only ${gets.length} GET operations`)
  assert.ok(gets.includes(DRAFTS) && gets.includes('/main/exams/{examId}/ai-analysis'))

  let asked = 0
  for (const path of gets) {
    const url = path.replace(/\{(\w+)\}/g, (_, name: string) => params[name] ?? randomUUID())
    for (const [who, caller] of [
      ['patient', asker],
      ['family manager', manager],
      ['expert', doctor],
    ] as const) {
      if (path === DRAFTS && caller === doctor) continue
      const answer = await world.app.inject({
        method: 'GET',
        url,
        headers: { authorization: `Bearer ${caller.token}` },
      })
      for (const secret of secrets) {
        assert.ok(!answer.body.includes(secret), `${who} GET ${url} served «${secret}»`)
      }
      asked += 1
    }
  }
  // And the patient's own calls about it, with a query naming the person.
  for (const [method, url] of [
    ['POST', `/main/exams/${examId}/ai-analysis`],
    ['GET', `/main/exams/${examId}/ai-analysis?personId=${asker.user.id}`],
    ['GET', `/main/images?personId=${asker.user.id}`],
    ['GET', `/main/consultations/${consultationId}`],
  ] as const) {
    for (const caller of [asker, manager]) {
      const answer = await world.app.inject({
        method,
        url,
        headers: { authorization: `Bearer ${caller.token}` },
        ...(method === 'POST' ? { payload: {} } : {}),
      })
      for (const secret of secrets) assert.ok(!answer.body.includes(secret), `${method} ${url}`)
      asked += 1
    }
  }
  assert.ok(asked > 180, `${asked}`)
})
