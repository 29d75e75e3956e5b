import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import path from 'node:path'
import { describe, test } from 'node:test'
import {
  DICOM_UPLOAD_CHUNK_BYTES,
  DICOM_UPLOAD_MAX_BYTES,
  DICOM_UPLOAD_MAX_FILES,
  DICOM_UPLOAD_NAME_MAX_BYTES,
  type UploadState,
} from '@contract/main/dicom-upload'
import { BODY_LIMIT } from '../../src/app'
import { testInstance } from '../dicom/writer'
import {
  call,
  daikonFiles,
  patient,
  sendFiles,
  settled,
  storedKeys,
  uploadWorld,
  usage,
  NOT_DICOM_JPEG,
} from './upload-support'

/**
 * Several DICOM files without a zip (a folder on H5, files from a chat on weapp): the upload starts
 * with the list of (name, size), the bytes are the files concatenated, sent in the same resumable
 * chunks, and the job cuts them apart. Same skipping, limits, quota and cleanup as a zip.
 */

const QUOTA = 40 * 1024 * 1024

describe('several-files upload', async () => {
  const world = await uploadWorld({ uploadQuotaBytes: QUOTA })

  test('a folder of 20 MR files (no extension) becomes one study named after the folder; strays counted, DICOMDIR ignored', async () => {
    const user = await patient(world)
    const files = [
      // Random bytes just short of a chunk: the first MR file straddles the chunk boundary, so
      // a cut in the wrong place would break it.
      { name: '头颅MR/填充.bin', data: randomBytes(DICOM_UPLOAD_CHUNK_BYTES - 1000) },
      ...daikonFiles('头颅MR'),
      { name: '头颅MR/DICOMDIR', data: testInstance() },
      // Finder's folder settings (6 KB, as a real one): ignored like in a zip.
      { name: '头颅MR/.DS_Store', data: Buffer.alloc(6148) },
      { name: '头颅MR/报告.jpg', data: NOT_DICOM_JPEG },
    ]
    const finished = await sendFiles(world, user, files, '头颅MR')
    assert.equal(finished.status, 'processing')
    const state = await settled(world, user, finished.uploadId)
    assert.equal(state.status, 'ready', state.message ?? '')
    assert.equal(state.storedCount, 20)
    assert.equal(state.skippedCount, 2)
    assert.equal(state.message, '有 2 个文件不是 DICOM，已跳过')
    assert.equal(state.examIds.length, 1)

    const exam = await world.app.db
      .selectFrom('exams')
      .selectAll()
      .where('id', '=', state.examIds[0]!)
      .executeTakeFirstOrThrow()
    assert.equal(exam.owner_user_id, user.user.id)
    assert.equal(exam.instance_count, 20)
    assert.equal(exam.title, '头颅MR')
    assert.equal(exam.status_message, '有 2 个文件不是 DICOM，已跳过')
    // The stored files are byte for byte the files sent.
    const sizes = await world.app.db
      .selectFrom('instances')
      .select('file_size')
      .where('exam_id', '=', exam.id)
      .execute()
    assert.deepEqual(
      sizes.map((row) => Number(row.file_size)).sort((a, b) => a - b),
      daikonFiles('x')
        .map((file) => file.data.length)
        .sort((a, b) => a - b),
    )
    assert.equal(await usage(world, user), Number(exam.size_bytes))
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`staging/uploads/${state.uploadId}`)),
      [],
      'chunks and file list are gone once it is done',
    )
  })

  test('loose files from a chat get no title from a folder; the same files again store nothing new', async () => {
    const user = await patient(world)
    const files = [
      { name: 'a', data: testInstance() },
      {
        name: 'b.dcm',
        data: testInstance([{ tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.9' }]),
      },
    ]
    const first = await settled(world, user, (await sendFiles(world, user, files)).uploadId)
    assert.equal(first.status, 'ready', first.message ?? '')
    assert.equal(first.storedCount, 2)
    assert.equal(first.message, null)
    const exam = await world.app.db
      .selectFrom('exams')
      .select('title')
      .where('id', '=', first.examIds[0]!)
      .executeTakeFirstOrThrow()
    assert.equal(exam.title, null)
    const used = await usage(world, user)
    const again = await settled(world, user, (await sendFiles(world, user, files)).uploadId)
    assert.equal(again.status, 'ready')
    assert.equal(again.storedCount, 0)
    assert.equal(again.message, '所选文件中的影像之前已上传过')
    assert.equal(await usage(world, user), used)
  })

  test('files that are not DICOM: 失败 with the reason, nothing stored, no quota held', async () => {
    const user = await patient(world)
    const finished = await sendFiles(world, user, [
      { name: '报告1.jpg', data: NOT_DICOM_JPEG },
      { name: '说明.txt', data: Buffer.from('请使用影像软件查看。'.repeat(10)) },
    ])
    const state = await settled(world, user, finished.uploadId)
    assert.equal(state.status, 'failed')
    assert.equal(state.message, '所选文件中没有 DICOM 文件')
    assert.deepEqual(
      storedKeys(world).filter((key) => key.includes(finished.uploadId)),
      [],
    )
    assert.equal(await usage(world, user), 0)
  })

  test('a list that does not add up, too many files, a file too big or a bad name: 400 in Chinese, nothing reserved or stored', async () => {
    const user = await patient(world)
    const before = storedKeys(world)
    const start = (body: unknown) => call(world, user, 'POST', '/main/dicom-upload', body)

    const mismatch = await start({
      fileName: '所选文件',
      size: 300,
      files: [{ name: 'a', size: 200 }],
    })
    assert.equal(mismatch.statusCode, 400)
    assert.equal(mismatch.body.error, '文件列表与上传大小不一致，请重新选择文件')

    const many = await start({
      fileName: '所选文件',
      size: 5001,
      files: Array.from({ length: 5001 }, (_, i) => ({ name: `IM${i}`, size: 1 })),
    })
    assert.equal(many.statusCode, 400)
    assert.equal(many.body.error, '一次最多上传 5000 个文件，请分批上传')

    const big = await start({
      fileName: '所选文件',
      size: 300 * 1024 * 1024,
      files: [{ name: 'CT/huge', size: 300 * 1024 * 1024 }],
    })
    assert.equal(big.statusCode, 400)
    assert.equal(big.body.error, '文件 CT/huge 超过 256 MB，无法处理')

    const control = await start({
      fileName: '所选文件',
      size: 1,
      files: [{ name: 'a\u0007b', size: 1 }],
    })
    assert.equal(control.statusCode, 400)
    assert.equal(control.body.error, '文件名 a?b 含有不支持的字符')

    const empty = await start({ fileName: '所选文件', size: 1, files: [] })
    assert.equal(empty.statusCode, 400)
    assert.equal(empty.body.error, '请选择要上传的文件')

    assert.equal(await usage(world, user), 0)
    assert.deepEqual(storedKeys(world), before)
  })

  test('a list of empty files (or names too long for it) is refused, naming the file: no list kept, nothing reserved', async () => {
    const user = await patient(world)
    const before = storedKeys(world)
    const start = (body: unknown) => call(world, user, 'POST', '/main/dicom-upload', body)
    // 5000 names for 1 byte: the list alone would be a megabyte on disk.
    const empties = await start({
      fileName: 'x',
      size: 1,
      files: Array.from({ length: 5000 }, (_, i) => ({
        name: `${'D'.repeat(150)}${i}`,
        size: i === 0 ? 1 : 0,
      })),
    })
    assert.equal(empties.statusCode, 400)
    assert.equal(
      empties.body.error,
      `文件 …${'D'.repeat(58)}0 只有 1 字节，不是 DICOM 文件（DICOM 文件至少 132 字节），请不要选择它`,
    )
    const desktop = await start({
      fileName: '头颅MR',
      size: 132,
      files: [
        { name: '头颅MR/desktop.ini', size: 0 },
        { name: '头颅MR/IM0001', size: 132 },
      ],
    })
    assert.equal(desktop.statusCode, 400)
    assert.equal(
      desktop.body.error,
      '文件 头颅MR/desktop.ini 只有 0 字节，不是 DICOM 文件（DICOM 文件至少 132 字节），请不要选择它',
    )
    // 161 bytes as UTF-8: 53 characters of 3 bytes and 2 of 1.
    const longName = `${'头'.repeat(53)}ab`
    const long = await start({ fileName: 'x', size: 132, files: [{ name: longName, size: 132 }] })
    assert.equal(long.statusCode, 400)
    assert.equal(long.body.error, `文件名 ${longName} 过长（不能超过 160 字节），请改短后重试`)
    assert.equal(await usage(world, user), 0)
    assert.deepEqual(storedKeys(world), before)
  })

  test('the file list is counted in the quota while the upload lasts', async () => {
    const user = await patient(world)
    const files = daikonFiles('MR')
    const size = files.reduce((sum, file) => sum + file.data.length, 0)
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'MR',
      size,
      files: files.map((file) => ({ name: file.name, size: file.data.length })),
    })
    assert.equal(started.statusCode, 200, JSON.stringify(started.body))
    const { uploadId } = started.body.data as UploadState
    const list = path.join(world.uploadDir, '.objects', `staging/uploads/${uploadId}/manifest.json`)
    assert.equal(await usage(world, user), size + statSync(list).size)
    await call(world, user, 'DELETE', `/main/dicom-upload/${uploadId}`)
    assert.equal(await usage(world, user), 0)
  })

  test('files over the quota are refused at the start and their list is not kept', async () => {
    const user = await patient(world)
    const before = storedKeys(world)
    const size = QUOTA + 132
    const refused = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: '所选文件',
      size,
      files: [
        { name: 'a', size: QUOTA },
        { name: 'b', size: 132 },
      ],
    })
    assert.equal(refused.statusCode, 400)
    assert.match(refused.body.error ?? '', /^存储空间不足/)
    assert.deepEqual(storedKeys(world), before)
  })

  test('cancel while receiving removes the chunks and the list and gives the quota back', async () => {
    const user = await patient(world)
    const files = daikonFiles('MR')
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'MR',
      size: files.reduce((sum, file) => sum + file.data.length, 0),
      files: files.map((file) => ({ name: file.name, size: file.data.length })),
    })
    assert.equal(started.statusCode, 200, JSON.stringify(started.body))
    const { uploadId } = started.body.data as UploadState
    assert.ok(storedKeys(world).some((key) => key.startsWith(`staging/uploads/${uploadId}/`)))
    const cancelled = await call(world, user, 'DELETE', `/main/dicom-upload/${uploadId}`)
    assert.equal(cancelled.statusCode, 200)
    assert.equal(await usage(world, user), 0)
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`staging/uploads/${uploadId}/`)),
      [],
    )
  })

  test('the longest list allowed (5000 files, every name 160 bytes of Chinese) fits in one request', async () => {
    const big = await uploadWorld({ uploadQuotaBytes: 3000 * 1024 * 1024 })
    const user = await patient(big)
    // As many digits as legal sizes allow: 20 files of 100 MB, the rest 19 500 bytes (2000 MB in all).
    const files = Array.from({ length: DICOM_UPLOAD_MAX_FILES }, (_, i) => ({
      name: `${'头'.repeat(52)}${String(i).padStart(4, '0')}`,
      size: i < 20 ? 100_000_000 : 19_500,
    }))
    assert.equal(Buffer.byteLength(files[0]!.name), DICOM_UPLOAD_NAME_MAX_BYTES)
    const body = {
      fileName: '影'.repeat(255),
      size: files.reduce((sum, file) => sum + file.size, 0),
      files,
    }
    assert.ok(body.size <= DICOM_UPLOAD_MAX_BYTES)
    const bytes = Buffer.byteLength(JSON.stringify(body))
    assert.ok(bytes < BODY_LIMIT, `${bytes} bytes`)
    const started = await call(big, user, 'POST', '/main/dicom-upload', body)
    assert.equal(started.statusCode, 200, JSON.stringify(started.body).slice(0, 300))
    const { uploadId } = started.body.data as UploadState
    const list = path.join(big.uploadDir, '.objects', `staging/uploads/${uploadId}/manifest.json`)
    assert.equal(await usage(big, user), body.size + statSync(list).size)
    await call(big, user, 'DELETE', `/main/dicom-upload/${uploadId}`)
    assert.equal(await usage(big, user), 0)
  })
})
