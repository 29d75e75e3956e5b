// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { DicomJson } from '../../src/dicom/json'
import { withoutPatientIdentity } from '../../src/domain/sharing/dicom-identity'

/*
 * What a grant shows of a stored dataset (sharing/dicom-identity.ts): an allow-list, so identity
 * in private tags, sequences or patient tags nobody listed never passes.
 */

const ID = '11010119900307002X'

const stored: DicomJson = {
  '00080060': { vr: 'CS', Value: ['CT'] },
  '00080080': { vr: 'LO', Value: ['示例市医院'] },
  '00091010': { vr: 'LO', Value: [`张三 ${ID}`] }, // private
  '00100010': { vr: 'PN', Value: [{ Alphabetic: 'Zhang^San', Ideographic: '张^三' }] },
  '00100020': { vr: 'LO', Value: [ID] },
  '00100030': { vr: 'DA', Value: ['19900307'] },
  '00100040': { vr: 'CS', Value: ['F'] },
  '00101010': { vr: 'AS', Value: ['036Y'] },
  '00102154': { vr: 'SH', Value: ['13800000001'] },
  '00102297': { vr: 'PN', Value: [{ Alphabetic: '张大山' }] }, // ResponsiblePerson
  '00280030': { vr: 'DS', Value: [0.7, 0.7] },
  '00281050': { vr: 'DS', Value: [40] },
  '00081110': {
    vr: 'SQ',
    Value: [{ '00081150': { vr: 'UI', Value: ['1.2.3'] }, '00100020': { vr: 'LO', Value: [ID] } }],
  },
  '04000561': {
    vr: 'SQ',
    Value: [{ '04000550': { vr: 'SQ', Value: [{ '00100020': { vr: 'LO', Value: [ID] } }] } }],
  },
}

test('keeps what a reader needs, masks the name, and nothing of the identity passes at any depth', () => {
  const shown = withoutPatientIdentity(stored)
  const text = JSON.stringify(shown)
  assert.ok(!text.includes(ID), text)
  assert.ok(!text.includes('19900307'), text)
  assert.ok(!text.includes('13800000001'), text)
  assert.ok(!text.includes('张大山'), text)
  assert.ok(!text.includes('Zhang'), text)
  assert.deepEqual(Object.keys(shown).sort(), [
    '00080060',
    '00080080',
    '00081110',
    '00100010',
    '00100040',
    '00101010',
    '00280030',
    '00281050',
  ])
  // 张^三 is a name of two characters: 张*, as the pages show it.
  assert.deepEqual(shown['00100010']!.Value, [{ Alphabetic: 'Z*******', Ideographic: '张*' }])
  // A kept sequence keeps its reference, not the ID inside it.
  assert.deepEqual(shown['00081110']!.Value, [{ '00081150': { vr: 'UI', Value: ['1.2.3'] } }])
  // The stored dataset itself is untouched.
  assert.deepEqual(stored['00100020']!.Value, [ID])
})
