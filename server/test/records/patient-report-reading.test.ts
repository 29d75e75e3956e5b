import assert from 'node:assert/strict'
import { test } from 'node:test'
import { versionOf } from '../../src/domain/patient/patient'
import { fhirDoctorNames, fhirFindings, fhirHumanName } from '../../src/domain/reports/reports'
import { parseDiagnosticReport } from '../../src/routes/fhir/diagnostic-report'
import { diagnosticReport } from '../fhir/support'

/*
 * The report history (patient.ts) reads stored versions by the rules the FHIR route accepted them
 * with (reports.ts): the doctors and findings a patient sees in an old version are the ones the
 * route took from it.
 */

function withDoctors(): Record<string, unknown> {
  const report = diagnosticReport({ findings: '肝脏形态大小正常。' })
  return {
    ...report,
    contained: [
      ...(report.contained as unknown[]),
      {
        resourceType: 'Practitioner',
        id: 'doc',
        name: [
          { use: 'usual', text: '小赵' },
          { use: 'official', family: '赵', given: ['一', '鸣'] },
        ],
      },
      { resourceType: 'Organization', id: 'dept', name: '放射科' },
    ],
    performer: [
      { reference: '#doc' },
      { reference: '#dept' },
      { reference: 'Organization/1', display: '影像中心' },
      { display: '钱医生' },
    ],
    resultsInterpreter: [{ type: 'Organization', display: '放射科' }, { display: '孙主任' }],
  }
}

test('the route and the report history read doctors and findings alike', () => {
  const body = withDoctors()
  const { write, input } = parseDiagnosticReport(body, new Date('2026-11-21T00:00:00Z'))
  assert.equal(write.performer, '赵一鸣、钱医生')
  assert.equal(write.reviewer, '孙主任')
  assert.equal(write.findings, '肝脏形态大小正常。')

  const version = versionOf({
    version: 1,
    status: 'final',
    recorded_at: '2026-11-21T00:00:00.000Z',
    resource_json: JSON.stringify(input),
  })
  assert.equal(version.performer, write.performer)
  assert.equal(version.reviewer, write.reviewer)
  assert.equal(version.findings, write.findings)
})

test('stored JSON of the wrong shape reads as absent, never throws', () => {
  assert.equal(fhirHumanName('张三'), null)
  assert.equal(fhirHumanName([{ text: '  ' }, 5]), null)
  assert.equal(fhirHumanName([{ family: '李', given: ['四'] }]), '李四')
  assert.equal(fhirDoctorNames({ contained: 'x' }, [{ reference: '#p' }, null, 'x']), null)
  assert.equal(fhirDoctorNames(null, { display: '王' }), null)
  assert.equal(
    fhirFindings({ presentedForm: [{ contentType: 'application/pdf', data: 'AA==' }] }),
    null,
  )
  const version = versionOf({
    version: 2,
    status: 'amended',
    recorded_at: '2026-11-21T00:00:00.000Z',
    resource_json: '{"performer": "王医生", "presentedForm": {}}',
  })
  assert.equal(version.performer, null)
  assert.equal(version.findings, null)
})
