import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import { DICOM_UPLOAD_CHUNK_BYTES, type UploadState } from '@contract/main/dicom-upload'
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
} from './upload-support'

/**
 * Several DICOM files without a zip (a folder on H5, files from a chat on weapp): the upload starts
 * with the list of (name, size), the bytes are the files concatenated, sent in the same resumable
 * chunks, and the job cuts them apart. Same skipping, limits, quota and cleanup as a zip.
 */

const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), randomBytes(3000)])
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
      { name: '头颅MR/.DS_Store', data: Buffer.from('clutter') },
      { name: '头颅MR/报告.jpg', data: JPEG },
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
      { name: '报告1.jpg', data: JPEG },
      { name: '说明.txt', data: Buffer.from('请使用影像软件查看') },
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
      size: 100,
      files: [{ name: 'a', size: 60 }],
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

  test('files over the quota are refused at the start and their list is not kept', async () => {
    const user = await patient(world)
    const before = storedKeys(world)
    const size = QUOTA + 1
    const refused = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: '所选文件',
      size,
      files: [
        { name: 'a', size: QUOTA },
        { name: 'b', size: 1 },
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
})
