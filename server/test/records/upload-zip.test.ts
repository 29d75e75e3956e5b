import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import { constants, deflateRawSync } from 'node:zlib'
import {
  DEFAULT_ZIP_LIMITS,
  openDicomZip,
  type ZipLimits,
  ZipRefusedError,
} from '../../src/domain/uploads/zip'
import { testInstance } from '../dicom/writer'
import { writeZip, type ZipItem } from './zip-writer'

const dir = mkdtempSync(path.join(os.tmpdir(), 'zip-test-'))
after(() => rmSync(dir, { recursive: true, force: true }))

function zipFile(items: ZipItem[] | Buffer): string {
  const file = path.join(dir, `${randomBytes(6).toString('hex')}.zip`)
  writeFileSync(file, Buffer.isBuffer(items) ? items : writeZip(items))
  return file
}

async function unpack(file: string, limits?: ZipLimits) {
  const zip = await openDicomZip(file, limits)
  const names: string[] = []
  for await (const entry of zip.files()) names.push(entry.name)
  return { names, skipped: zip.skippedNotDicom }
}

async function refusal(file: string, limits?: ZipLimits): Promise<ZipRefusedError> {
  try {
    await unpack(file, limits)
  } catch (error) {
    assert.ok(error instanceof ZipRefusedError, `expected a refusal, got ${String(error)}`)
    return error
  }
  assert.fail('the zip was accepted')
}

const dicom = (n: number) =>
  testInstance([{ tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.10.7.${n}` }])
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(400)])

/** `size` zero bytes as raw deflate, built from one flushed block repeated (cheap to make). */
function deflatedZeros(megabytes: number, prefix: Uint8Array = new Uint8Array(0)): Buffer {
  const start = deflateRawSync(prefix, { finishFlush: constants.Z_FULL_FLUSH })
  const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH })
  const final = deflateRawSync(Buffer.alloc(0))
  return Buffer.concat([start, ...Array.from({ length: megabytes }, () => block), final])
}

describe('zip unpacking', () => {
  test('DICOM files in nested folders are read; DICOMDIR and system clutter are left out quietly, other files are counted', async () => {
    const file = zipFile([
      { name: 'DISC/', unixMode: 0o040755 },
      { name: 'DICOMDIR', data: dicom(100) },
      { name: 'DISC/PAT1/STU1/SER1/IM0001', data: dicom(1) },
      { name: 'DISC/PAT1/STU1/SER2/IM0001.dcm', data: dicom(2), method: 0 },
      { name: '检查/影像 3.dcm', data: dicom(3) },
      { name: '__MACOSX/DISC/._IM0001', data: randomBytes(200) },
      { name: 'DISC/.DS_Store', data: randomBytes(200) },
      { name: 'photo.jpg', data: JPEG },
      { name: 'readme.txt', data: Buffer.from('请用影像软件打开') },
    ])
    const { names, skipped } = await unpack(file)
    assert.deepEqual(names, [
      'DISC/PAT1/STU1/SER1/IM0001',
      'DISC/PAT1/STU1/SER2/IM0001.dcm',
      '检查/影像 3.dcm',
    ])
    assert.equal(skipped, 2)
  })

  test('the bytes handed on are the files themselves', async () => {
    const zip = await openDicomZip(zipFile([{ name: 'a.dcm', data: dicom(9) }]))
    const out = []
    for await (const entry of zip.files()) out.push(entry.bytes)
    assert.deepEqual(out, [dicom(9)])
  })

  for (const name of [
    '../evil.dcm',
    'a/../../evil.dcm',
    '/etc/passwd',
    'C:/Windows/evil.dcm',
    'a\\..\\evil.dcm',
    'dir\\IM0001',
  ]) {
    test(`an entry named ${JSON.stringify(name)} refuses the archive`, async () => {
      const error = await refusal(
        zipFile([
          { name: 'ok.dcm', data: dicom(1) },
          { name, data: dicom(2) },
        ]),
      )
      assert.equal(error.code, 'UNSAFE_PATH')
      assert.match(error.message, /^压缩包中含有不安全的路径（.+），已拒绝$/)
    })
  }

  test('a symbolic link refuses the archive, before any file is read', async () => {
    const file = zipFile([
      { name: 'ok.dcm', data: dicom(1) },
      { name: 'link.dcm', data: Buffer.from('/etc/passwd'), unixMode: 0o120777, method: 0 },
    ])
    const zip = openDicomZip(file)
    await assert.rejects(zip, (error: ZipRefusedError) => {
      assert.equal(error.code, 'LINK')
      assert.equal(error.message, '压缩包中含有链接或特殊文件（link.dcm），已拒绝')
      return true
    })
  })

  test('regular Unix files (mode 0100644) are fine', async () => {
    const { names } = await unpack(zipFile([{ name: 'a.dcm', data: dicom(1), unixMode: 0o100644 }]))
    assert.deepEqual(names, ['a.dcm'])
  })

  test('an encrypted entry refuses the archive', async () => {
    const error = await refusal(zipFile([{ name: 'a.dcm', data: dicom(1), flags: 0x801 }]))
    assert.equal(error.code, 'ENCRYPTED')
    assert.equal(error.message, '压缩包设置了密码，请解压后不设密码重新打包再上传')
  })

  test('a compression method other than stored/deflate is refused by name', async () => {
    const error = await refusal(
      zipFile([{ name: 'a.dcm', data: dicom(1), method: 12, raw: randomBytes(50) }]),
    )
    assert.equal(error.code, 'UNSUPPORTED_METHOD')
  })

  test('too many entries are refused from the directory alone', async () => {
    const items = Array.from({ length: 6 }, (_, i) => ({ name: `${i}.dcm`, data: dicom(i) }))
    const error = await refusal(zipFile(items), { ...DEFAULT_ZIP_LIMITS, maxEntries: 5 })
    assert.equal(error.code, 'TOO_MANY_ENTRIES')
    assert.equal(error.message, '压缩包中的文件过多（超过 5 个），请分批上传')
  })

  test('a file larger than the per-file limit is refused', async () => {
    const error = await refusal(
      zipFile([{ name: 'big.dcm', data: randomBytes(3 * 1024 * 1024) }]),
      {
        ...DEFAULT_ZIP_LIMITS,
        maxEntryBytes: 2 * 1024 * 1024,
      },
    )
    assert.equal(error.code, 'ENTRY_TOO_LARGE')
    assert.equal(error.message, '压缩包中的文件 big.dcm 超过 2 MB，无法处理')
  })

  test('files together larger than the total limit are refused', async () => {
    const items = Array.from({ length: 3 }, (_, i) => ({
      name: `${i}.dcm`,
      data: Buffer.concat([dicom(i), randomBytes(1024 * 1024)]),
    }))
    const error = await refusal(zipFile(items), {
      ...DEFAULT_ZIP_LIMITS,
      maxTotalBytes: 2 * 1024 * 1024,
    })
    assert.equal(error.code, 'TOO_LARGE')
    assert.equal(error.message, '压缩包解压后超过 2 MB，请分批上传')
  })

  test('an honest bomb (its header says 2 GB from 2 MB) is refused before inflating', async () => {
    const raw = deflatedZeros(2048)
    const file = zipFile([
      { name: 'a.dcm', data: dicom(1) },
      { name: 'zeros.dcm', raw, declaredSize: 2048 * 1024 * 1024 },
    ])
    const started = Date.now()
    const error = await refusal(file)
    assert.equal(error.code, 'BOMB')
    assert.equal(error.message, '压缩包内容异常（压缩比过高），已拒绝')
    assert.ok(Date.now() - started < 1000)
  })

  test('a lying bomb (header says 100 KB, inflates to 8 GB) stops while inflating', async () => {
    // 8 GB of zeros would take zlib well over ten seconds to inflate here; the refusal comes at the
    // first chunk past the declared size.
    // It starts like a DICOM file, so it is not set aside as something else after 132 bytes.
    const head = dicom(1)
    const raw = deflatedZeros(8192, dicom(2))
    const file = zipFile([
      { name: 'a.dcm', data: head },
      { name: 'zeros.dcm', raw, declaredSize: 100 * 1024 },
    ])
    const zip = await openDicomZip(file)
    const seen: string[] = []
    const started = Date.now()
    await assert.rejects(
      (async () => {
        for await (const entry of zip.files()) seen.push(entry.name)
      })(),
      (error: ZipRefusedError) => error instanceof ZipRefusedError && error.code === 'BOMB',
    )
    assert.ok(Date.now() - started < 3000, `took ${Date.now() - started} ms`)
    assert.deepEqual(seen, ['a.dcm'])
  })

  test('a bomb within its declared size is stopped by the total limit as it inflates', async () => {
    // Each entry claims 1 MB + a bit, honestly; there are many; the limit cuts in mid-stream.
    const limits = { ...DEFAULT_ZIP_LIMITS, maxTotalBytes: 5 * 1024 * 1024, maxRatio: 10_000 }
    const zeros = deflatedZeros(1)
    const items: ZipItem[] = Array.from({ length: 4 }, (_, i) => ({
      name: `${i}.dcm`,
      raw: zeros,
      declaredSize: 1024 * 1024,
    }))
    // The directory says 4 MB; the fifth entry lies (1 KB declared, 1 MB real), passing the check.
    items.push({ name: 'liar.dcm', raw: deflatedZeros(3), declaredSize: 1024 })
    const error = await refusal(zipFile(items), limits)
    assert.ok(['BOMB', 'TOO_LARGE'].includes(error.code))
  })

  test('something that is not a zip is refused as such', async () => {
    const error = await refusal(zipFile(JPEG))
    assert.equal(error.code, 'NOT_ZIP')
    assert.equal(error.message, '文件不是有效的 zip 压缩包，请将 DICOM 文件打包为 zip 后上传')
  })

  test('a truncated zip is refused', async () => {
    const whole = writeZip([
      { name: 'a.dcm', data: Buffer.concat([dicom(1), randomBytes(5000)]) },
      { name: 'b.dcm', data: dicom(2) },
    ])
    const error = await refusal(zipFile(whole.subarray(0, whole.length - 30)))
    assert.ok(['NOT_ZIP', 'CORRUPT'].includes(error.code))
  })

  test('broken deflate data inside a valid directory reads as a damaged archive', async () => {
    const error = await refusal(
      zipFile([
        {
          name: 'a.dcm',
          raw: Buffer.concat([Buffer.from([0xff, 0xff]), randomBytes(300)]),
          declaredSize: 400,
        },
      ]),
    )
    assert.equal(error.code, 'CORRUPT')
    assert.equal(error.message, '压缩包已损坏或不完整，请重新打包后上传')
  })
})
