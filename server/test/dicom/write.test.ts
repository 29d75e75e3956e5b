// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeFrames, parse } from '../../src/dicom'
import {
  DEFLATED_EXPLICIT_LE,
  encapsulated,
  encodeRleFrame,
  newUid,
  RLE_LOSSLESS,
  writePart10,
  type Element,
} from '../../src/dicom/write'
import { demoBrainMr, demoChestDxJpeg, demoHeadCtRle } from '../../src/domain/demo-records/phantoms'

const image = (rows: number, columns: number, bits: 8 | 16): Element[] => [
  { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
  { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
  { tag: '00080018', vr: 'UI', value: newUid() },
  { tag: '00100010', vr: 'PN', value: '王^小明' },
  { tag: '0020000D', vr: 'UI', value: newUid() },
  { tag: '0020000E', vr: 'UI', value: newUid() },
  { tag: '00280002', vr: 'US', value: [1] },
  { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
  { tag: '00280010', vr: 'US', value: [rows] },
  { tag: '00280011', vr: 'US', value: [columns] },
  { tag: '00280100', vr: 'US', value: [bits] },
  { tag: '00280101', vr: 'US', value: [bits] },
  { tag: '00280102', vr: 'US', value: [bits - 1] },
  { tag: '00280103', vr: 'US', value: [0] },
]

test('new UIDs are valid DICOM UIDs under 2.25, at most 64 characters, all different', () => {
  const uids = new Set(Array.from({ length: 1000 }, newUid))
  assert.equal(uids.size, 1000)
  for (const uid of uids) assert.match(uid, /^2\.25\.(0|[1-9]\d*)$/)
  for (const uid of uids) assert.ok(uid.length <= 64)
})

test('RLE frames we encode decode back to the same 16-bit and 8-bit pixels', async () => {
  const words = new Uint16Array(64 * 48)
  for (let i = 0; i < words.length; i++) words[i] = i % 7 === 0 ? 4095 : (i * 37) % 300
  words.fill(1000, 100, 400) // long runs as well as literals
  const file16 = writePart10(image(48, 64, 16), RLE_LOSSLESS, encapsulated([encodeRleFrame(words)]))
  const decoded16 = await decodeFrames(parse(file16))
  assert.ok(decoded16.ok)
  assert.deepEqual(Array.from(decoded16.frames[0]!.pixels), Array.from(words))

  const bytes = new Uint8Array(33 * 17).map((_, i) => (i < 200 ? 9 : i % 251))
  const file8 = writePart10(image(17, 33, 8), RLE_LOSSLESS, encapsulated([encodeRleFrame(bytes)]))
  const decoded8 = await decodeFrames(parse(file8))
  assert.ok(decoded8.ok)
  assert.deepEqual(Array.from(decoded8.frames[0]!.pixels), Array.from(bytes))
  assert.equal(parse(file8).patient.name, '王小明', 'UTF-8 text under ISO_IR 192')
})

test('text as raw bytes (latin1 option) in a deflated file: the tests spell out GB18030 names so', () => {
  // 王^小明 in GB18030, each byte one latin1 character.
  const name = Buffer.from([0xcd, 0xf5, 0x5e, 0xd0, 0xa1, 0xc3, 0xf7]).toString('latin1')
  const elements = image(2, 2, 8).map((element) =>
    element.tag === '00080005'
      ? { ...element, value: 'GB18030' }
      : element.tag === '00100010'
        ? { ...element, value: name }
        : element,
  )
  const sopInstanceUid = newUid()
  const file = writePart10(elements, DEFLATED_EXPLICIT_LE, undefined, {
    text: 'latin1',
    meta: { sopInstanceUid },
  })
  const instance = parse(file)
  assert.equal(instance.transferSyntaxUid, DEFLATED_EXPLICIT_LE)
  assert.equal(instance.patient.name, '王小明')
  // The meta's instance UID is the one given; the dataset keeps its own.
  assert.ok(file.includes(Buffer.from(sopInstanceUid, 'latin1')))
  // Without the option the same string is UTF-8 (two bytes per character above 0x7f).
  const utf8 = writePart10(elements, DEFLATED_EXPLICIT_LE)
  assert.notEqual(parse(utf8).patient.name, '王小明')
})

test('the demo phantoms parse and decode: MR 20 slices, RLE CT, JPEG radiograph', async () => {
  const input = {
    patient: {
      name: '演示^患者',
      idNumber: '110101199003071233',
      sex: 'M' as const,
      birthDate: '19900307',
    },
    accessionNumber: 'T1',
    date: '20261101',
    time: '093000',
    institution: '示例市第一人民医院',
  }
  const mr = demoBrainMr(input)
  assert.equal(mr.files.length, 20)
  const rle = demoHeadCtRle(input)
  const dx = await demoChestDxJpeg(input)
  for (const file of [mr.files[10]!, rle.files[6]!, dx.files[0]!]) {
    const instance = parse(file)
    assert.equal(instance.studyInstanceUid.length > 0, true)
    assert.equal(instance.patient.name, '演示患者')
    const decoded = await decodeFrames(instance)
    assert.ok(decoded.ok, `${instance.transferSyntaxUid} decodes`)
    const pixels = Array.from(decoded.frames[0]!.pixels)
    assert.ok(new Set(pixels).size > 10, 'an image, not a blank')
  }
  // The head CT's stored values are HU + 1024: bone (1200 HU) and air (-1000 HU) are both there.
  const decoded = await decodeFrames(parse(rle.files[6]!))
  assert.ok(decoded.ok)
  const values = decoded.frames[0]!.pixels
  assert.ok(values.some((v) => v > 2000) && values.some((v) => v < 100))
})
