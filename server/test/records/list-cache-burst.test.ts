import assert from 'node:assert/strict'
import { test } from 'node:test'
import { listPersonalReports } from '@contract/main/records'
import { envelope } from '@contract/envelope'
import { createSession } from '../../src/domain/identity'
import {
  diagnosticReport,
  fhirHeaders,
  fhirWorld,
  patientWithCard,
  residentId,
  studyUid,
} from '../fhir/support'

/*
 * The change counters the lists' cache reads (migration 0011) are rows every write to a person's
 * records updates. A burst of such writes for one person at once — reports arriving from the
 * hospital, the person marking them read, the lists being read — must all succeed (no lock waits
 * turned into deadlocks or errors on PostgreSQL) and the list must end up showing every report.
 */

const ListSchema = envelope(listPersonalReports.output)
const BURST = 24

test('a burst of pushes, marks and reads for one person: all succeed, the list ends complete', async () => {
  const world = await fhirWorld()
  const { app } = world
  const idNumber = residentId('19880808', 321)
  const user = await patientWithCard(app, idNumber, '钱并发')
  const token = (await createSession(app.db, user.id, app.now())).access_token
  const auth = { authorization: `Bearer ${token}` }

  const push = (i: number) =>
    app.inject({
      method: 'POST',
      url: '/fhir/DiagnosticReport',
      headers: fhirHeaders(world.key),
      payload: JSON.stringify(
        diagnosticReport({
          identifier: `BURST-${i}`,
          accession: `ACC-BURST-${i}`,
          studyUid: studyUid(),
          idNumber,
          name: '钱并发',
        }),
      ),
    })
  const markAll = () =>
    app.inject({
      method: 'POST',
      url: '/main/reports/read',
      headers: auth,
      payload: { all: true },
    })
  const list = () => app.inject({ url: '/main/reports?pageSize=50', headers: auth })

  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) => [push(i), markAll(), list()]).flat(),
  )
  for (const answer of answers) assert.ok(answer.statusCode < 300, answer.body)

  const final = ListSchema.parse((await list()).json()).data!
  assert.equal(final.total, BURST)
  // Marked after the last push: nothing unread; then one more report arrives and is unread at once.
  assert.equal((await markAll()).statusCode, 200)
  assert.equal(ListSchema.parse((await list()).json()).data!.unread, 0)
  assert.equal((await push(BURST)).statusCode, 201)
  const after = ListSchema.parse((await list()).json()).data!
  assert.equal(after.total, BURST + 1)
  assert.equal(after.unread, 1)
})
