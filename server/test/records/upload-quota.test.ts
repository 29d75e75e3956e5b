import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { describe, test } from 'node:test'
import { DICOM_UPLOAD_CHUNK_BYTES, type UploadState } from '@contract/main/dicom-upload'
import { reserveStorage } from '../../src/domain/uploads/uploads'
import { testInstance } from '../dicom/writer'
import { TEST_DB_KIND } from '../helpers'
import { call, patient, putChunk, settled, storedKeys, uploadWorld, usage } from './upload-support'
import { writeZip } from './zip-writer'

/**
 * The per-person storage quota under load: reserved before a byte is stored, in one conditional
 * UPDATE, so 20 uploads at once can never pass it together (SQLite and PostgreSQL); what a zip
 * inflates to is reserved before it is ingested; failures give everything back.
 */

const MB = 1024 * 1024
const QUOTA = 10 * MB

/** One instance with `bytes` of incompressible pixel data (stored, so the zip is as big). */
function bigInstance(n: number, bytes: number): Buffer {
  const side = Math.floor(Math.sqrt(bytes))
  return testInstance([
    { tag: '00080018', vr: 'UI', value: `1.2.826.0.1.3680043.10.9.${process.pid}.${n}` },
    { tag: '0020000D', vr: 'UI', value: `1.2.826.0.1.3680043.10.9.${process.pid}.${n}.1` },
    { tag: '0020000E', vr: 'UI', value: `1.2.826.0.1.3680043.10.9.${process.pid}.${n}.2` },
    { tag: '00280010', vr: 'US', value: [side] },
    { tag: '00280011', vr: 'US', value: [side] },
    { tag: '7FE00010', vr: 'OB', value: randomBytes(side * side) },
  ])
}

describe(`storage quota (${TEST_DB_KIND})`, async () => {
  const world = await uploadWorld({ uploadQuotaBytes: QUOTA })

  test('20 parallel starts of 4 MB against a 10 MB quota: exactly 2 pass, the rest are told why', async () => {
    const user = await patient(world)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(world, user, 'POST', '/main/dicom-upload', { fileName: `${i}.zip`, size: 4 * MB }),
      ),
    )
    const accepted = answers.filter((answer) => answer.statusCode === 200)
    const refused = answers.filter((answer) => answer.statusCode === 400)
    assert.equal(accepted.length, 2)
    assert.equal(refused.length, 18)
    for (const answer of refused) {
      assert.match(answer.body.error ?? '', /^存储空间不足：已用 8 MB，共 10 MB，本次需要 4 MB。/)
    }
    assert.equal(await usage(world, user), 8 * MB)

    // Cancelling gives the reservation back at once.
    await Promise.all(
      accepted.map((answer) =>
        call(
          world,
          user,
          'DELETE',
          `/main/dicom-upload/${(answer.body.data as UploadState).uploadId}`,
        ),
      ),
    )
    assert.equal(await usage(world, user), 0)
  })

  test('20 parallel starts within the quota: 3 uploads receiving at once, the rest asked to finish or cancel one', async () => {
    const user = await patient(world)
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        call(world, user, 'POST', '/main/dicom-upload', { fileName: `${i}.zip`, size: 1000 }),
      ),
    )
    const accepted = answers.filter((answer) => answer.statusCode === 200)
    const refused = answers.filter((answer) => answer.statusCode === 400)
    assert.equal(accepted.length, 3)
    assert.equal(refused.length, 17)
    for (const answer of refused) {
      assert.equal(answer.body.error, '已有 3 个上传尚未完成，请先完成或取消其中一个后再上传')
    }
    assert.equal(await usage(world, user), 3000)
    // Another person is not affected.
    const other = await patient(world)
    const theirs = await call(world, other, 'POST', '/main/dicom-upload', {
      fileName: 'a.zip',
      size: 1000,
    })
    assert.equal(theirs.statusCode, 200)

    // Cancelling one makes room for one.
    const first = (accepted[0]!.body.data as UploadState).uploadId
    assert.equal((await call(world, user, 'DELETE', `/main/dicom-upload/${first}`)).statusCode, 200)
    const again = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call(world, user, 'POST', '/main/dicom-upload', { fileName: `${i}.zip`, size: 1000 }),
      ),
    )
    assert.deepEqual(again.map((answer) => answer.statusCode).sort(), [200, 400, 400, 400, 400])
    assert.equal(await usage(world, user), 3000)
  })

  test('20 whole uploads in parallel: never more stored than the quota, and usage equals what is stored', async () => {
    const user = await patient(world)
    const zips = Array.from({ length: 20 }, (_, i) =>
      writeZip([{ name: `${i}.dcm`, data: bigInstance(i, 900 * 1024), method: 0 }]),
    )
    const results = await Promise.all(
      zips.map(async (zip, i) => {
        // Three receive at once (MAX_RECEIVING_UPLOADS): the others start again once one is sent.
        let started = await call(world, user, 'POST', '/main/dicom-upload', {
          fileName: `${i}.zip`,
          size: zip.length,
        })
        while (started.body.error?.startsWith('已有 3 个上传尚未完成')) {
          await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20))
          started = await call(world, user, 'POST', '/main/dicom-upload', {
            fileName: `${i}.zip`,
            size: zip.length,
          })
        }
        if (started.statusCode !== 200) return { refused: started.body.error }
        const { uploadId } = started.body.data as UploadState
        for (let offset = 0; offset < zip.length; offset += DICOM_UPLOAD_CHUNK_BYTES) {
          const put = await putChunk(
            world,
            user,
            uploadId,
            offset,
            zip.subarray(offset, offset + DICOM_UPLOAD_CHUNK_BYTES),
          )
          assert.equal(put.statusCode, 200)
        }
        await call(world, user, 'POST', `/main/dicom-upload/${uploadId}/finish`)
        return { state: await settled(world, user, uploadId, 120_000) }
      }),
    )
    const ready = results.filter((result) => result.state?.status === 'ready')
    const refused = results.filter((result) => result.refused)
    assert.ok(ready.length >= 9 && ready.length <= 11, `ready: ${ready.length}`)
    assert.equal(ready.length + refused.length, 20)
    const stored = await world.app.db
      .selectFrom('exams')
      .select((eb) => eb.fn.sum<number | string>('size_bytes').as('bytes'))
      .where('owner_user_id', '=', user.user.id)
      .executeTakeFirstOrThrow()
    assert.ok(Number(stored.bytes) <= QUOTA)
    assert.equal(await usage(world, user), Number(stored.bytes))
  })

  test('a small zip that inflates past the quota is refused before anything is stored', async () => {
    const user = await patient(world)
    // 12 MB that deflates about 3:1, like real images (zeros alone would trip the ratio limit
    // first): the quota is what refuses it.
    const pixels = Buffer.concat(
      Array.from({ length: 12 }, () =>
        Buffer.concat([randomBytes(MB / 3), Buffer.alloc((2 * MB) / 3)]),
      ),
    )
    const instance = testInstance([{ tag: '7FE00010', vr: 'OB', value: pixels }])
    const zip = writeZip([{ name: 'big.dcm', data: instance }])
    assert.ok(zip.length < 6 * MB && instance.length > QUOTA)
    const started = await call(world, user, 'POST', '/main/dicom-upload', {
      fileName: 'big.zip',
      size: zip.length,
    })
    const { uploadId } = started.body.data as UploadState
    for (let offset = 0; offset < zip.length; offset += DICOM_UPLOAD_CHUNK_BYTES) {
      await putChunk(
        world,
        user,
        uploadId,
        offset,
        zip.subarray(offset, offset + DICOM_UPLOAD_CHUNK_BYTES),
      )
    }
    await call(world, user, 'POST', `/main/dicom-upload/${uploadId}/finish`)
    const state = await settled(world, user, uploadId)
    assert.equal(state.status, 'failed')
    assert.match(
      state.message ?? '',
      /^存储空间不足：已用 \d+ MB，共 10 MB，本次需要 12 MB。请删除不需要的影像后再试$/,
    )
    assert.equal(await usage(world, user), 0)
    assert.deepEqual(
      storedKeys(world).filter((key) => key.includes(uploadId)),
      [],
    )
  })

  test('reserveStorage itself: all-or-nothing, never past the quota', async () => {
    const user = await patient(world)
    const now = new Date()
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        reserveStorage(world.app.db, user.user.id, 3 * MB, QUOTA, now),
      ),
    )
    assert.equal(results.filter(Boolean).length, 3)
    assert.equal(await usage(world, user), 9 * MB)
    assert.equal(await reserveStorage(world.app.db, user.user.id, MB, QUOTA, now), true)
    assert.equal(await reserveStorage(world.app.db, user.user.id, 1, QUOTA, now), false)
  })
})
