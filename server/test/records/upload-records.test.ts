import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { deflateSync } from 'node:zlib'
import type { ReportPhotos, UploadState } from '@contract/main/dicom-upload'
import { encodeJpeg, decodeJpeg8 } from '../../src/dicom/codecs'
import { crc32 } from '../../src/dicom/png'
import { bearer } from '../domain/profile/support'
import { testInstance } from '../dicom/writer'
import type { TestUser } from '../domain/profile/support'
import {
  call,
  daikonZip,
  patient,
  sendZip,
  settled,
  storedKeys,
  uploadWorld,
  usage,
  type UploadWorld,
} from './upload-support'
import { writeZip } from './zip-writer'

/**
 * What a patient does with an uploaded study: its record (save dicom report), photos of the paper
 * report (sniffed, re-encoded, EXIF gone, turned upright), deleting one file or the whole study with
 * the stored objects really removed and the quota given back. Strangers get 404.
 */

async function readyUpload(world: UploadWorld, user: TestUser): Promise<string> {
  const state = await settled(world, user, (await sendZip(world, user, daikonZip())).uploadId)
  assert.equal(state.status, 'ready', state.message ?? '')
  return state.examIds[0]!
}

/**
 * A one-file study of the person's besides the one a test deletes: its bytes keep the usage above
 * zero, so a delete that gave back too much shows (the usage never goes below zero).
 */
async function otherStudy(world: UploadWorld, user: TestUser, n: number): Promise<number> {
  const uid = `1.2.826.0.1.3680043.10.77.${process.pid}.${n}`
  const zip = writeZip([
    {
      name: 'a.dcm',
      data: testInstance([
        { tag: '00080018', vr: 'UI', value: uid },
        { tag: '0020000D', vr: 'UI', value: `${uid}.1` },
        { tag: '0020000E', vr: 'UI', value: `${uid}.2` },
      ]),
    },
  ])
  const state = await settled(world, user, (await sendZip(world, user, zip)).uploadId)
  assert.equal(state.status, 'ready', state.message ?? '')
  const used = await usage(world, user)
  assert.ok(used > 0)
  return used
}

/** A JPEG with an EXIF block (orientation 6 = rotate 90° clockwise, a GPS note, a device name). */
async function phonePhoto(width: number, height: number): Promise<Buffer> {
  const pixels = new Uint8Array(width * height * 3)
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const at = (y * width + x) * 3
      // Left half red, right half blue: the rotation is visible in the decoded pixels.
      pixels[at] = x < width / 2 ? 250 : 0
      pixels[at + 2] = x < width / 2 ? 0 : 250
    }
  }
  const jpeg = Buffer.from(await encodeJpeg(pixels, width, height, 3, 95))
  const note = Buffer.from('GPS 39.9042N 116.4074E SecretPhone X1\0', 'latin1')
  const tiff = Buffer.alloc(8 + 2 + 12 * 2 + 4)
  tiff.write('II', 0, 'latin1')
  tiff.writeUInt16LE(42, 2)
  tiff.writeUInt32LE(8, 4)
  tiff.writeUInt16LE(2, 8)
  // Orientation (SHORT, 1) = 6
  tiff.writeUInt16LE(0x0112, 10)
  tiff.writeUInt16LE(3, 12)
  tiff.writeUInt32LE(1, 14)
  tiff.writeUInt16LE(6, 18)
  // ImageDescription (ASCII) pointing past the IFD
  tiff.writeUInt16LE(0x010e, 22)
  tiff.writeUInt16LE(2, 24)
  tiff.writeUInt32LE(note.length, 26)
  tiff.writeUInt32LE(tiff.length, 30)
  const body = Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff, note])
  const app1 = Buffer.alloc(4)
  app1.writeUInt16BE(0xffe1, 0)
  app1.writeUInt16BE(body.length + 2, 2)
  return Buffer.concat([jpeg.subarray(0, 2), app1, body, jpeg.subarray(2)])
}

/** An RGBA PNG whose rows use every filter type, with a tEXt chunk that must not survive. */
function rgbaPng(width: number, height: number): Buffer {
  const bpp = 4
  const stride = width * bpp
  const rows: Buffer[] = []
  let previous = Buffer.alloc(stride)
  for (let y = 0; y < height; y++) {
    const line = Buffer.alloc(stride)
    for (let x = 0; x < width; x++) line.set([x * 8, y * 8, 100, x < width / 2 ? 255 : 0], x * 4)
    const filter = y % 5
    const out = Buffer.alloc(stride + 1)
    out[0] = filter
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? line[i - bpp]! : 0
      const b = previous[i]!
      const c = i >= bpp ? previous[i - bpp]! : 0
      const p = a + b - c
      const paeth =
        Math.abs(p - a) <= Math.abs(p - b) && Math.abs(p - a) <= Math.abs(p - c)
          ? a
          : Math.abs(p - b) <= Math.abs(p - c)
            ? b
            : c
      const predictor = [0, a, b, (a + b) >> 1, paeth][filter]!
      out[i + 1] = (line[i]! - predictor) & 0xff
    }
    rows.push(out)
    previous = line
  }
  const chunk = (type: string, data: Buffer) => {
    const head = Buffer.alloc(8)
    head.writeUInt32BE(data.length, 0)
    head.write(type, 4, 'latin1')
    const crc = Buffer.alloc(4)
    crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0)
    return Buffer.concat([head, data, crc])
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr[8] = 8
  ihdr[9] = 6
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('tEXt', Buffer.from('Comment\0GPS 39.9042N 116.4074E', 'latin1')),
    chunk('IDAT', deflateSync(Buffer.concat(rows))),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

function multipart(files: { name: string; type: string; bytes: Buffer }[]) {
  const boundary = '----photo-test-boundary'
  const parts = files.map((file) =>
    Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.bytes,
      Buffer.from('\r\n'),
    ]),
  )
  return {
    payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    contentType: `multipart/form-data; boundary=${boundary}`,
  }
}

async function postPhotos(
  world: UploadWorld,
  user: TestUser,
  examId: string,
  files: { name: string; type: string; bytes: Buffer }[],
) {
  const body = multipart(files)
  const response = await world.app.inject({
    method: 'POST',
    url: `/main/dicom-upload/exams/${examId}/photos`,
    headers: { ...bearer(user.token), 'content-type': body.contentType },
    payload: body.payload,
  })
  return { statusCode: response.statusCode, body: response.json() }
}

describe('uploaded studies', async () => {
  const world = await uploadWorld()

  test('save dicom report: title, hospital, exam date and notes; bad input 400 in Chinese; strangers 404', async () => {
    const user = await patient(world)
    const stranger = await patient(world)
    const examId = await readyUpload(world, user)
    const saved = await call(world, user, 'POST', `/main/dicom-upload/exams/${examId}`, {
      title: ' 头颅磁共振 ',
      hospitalText: '示例市第一人民医院',
      studyDate: '2026-01-31',
      notes: '复查用',
    })
    assert.equal(saved.statusCode, 200, JSON.stringify(saved.body))
    const exam = await world.app.db
      .selectFrom('exams')
      .selectAll()
      .where('id', '=', examId)
      .executeTakeFirstOrThrow()
    assert.equal(exam.title, '头颅磁共振')
    assert.equal(exam.hospital_text, '示例市第一人民医院')
    assert.equal(exam.study_date, '2026-01-31')
    assert.equal(exam.notes, '复查用')

    // null clears; absent keeps.
    await call(world, user, 'POST', `/main/dicom-upload/exams/${examId}`, { notes: null })
    const after = await world.app.db
      .selectFrom('exams')
      .select(['notes', 'title'])
      .where('id', '=', examId)
      .executeTakeFirstOrThrow()
    assert.deepEqual(after, { notes: null, title: '头颅磁共振' })

    const badDate = await call(world, user, 'POST', `/main/dicom-upload/exams/${examId}`, {
      studyDate: '2026/01/31',
    })
    assert.equal(badDate.statusCode, 400)
    assert.match(badDate.body.error ?? '', /日期格式应为 YYYY-MM-DD/)
    const longTitle = await call(world, user, 'POST', `/main/dicom-upload/exams/${examId}`, {
      title: '长'.repeat(51),
    })
    assert.equal(longTitle.statusCode, 400)
    assert.equal(longTitle.body.error, '标题不能超过 50 个字')

    const foreign = await call(world, stranger, 'POST', `/main/dicom-upload/exams/${examId}`, {
      title: '不是我的',
    })
    assert.equal(foreign.statusCode, 404)
    assert.equal(foreign.body.error, '检查不存在或您无权查看')
  })

  test('deleting one file removes its objects, recounts the study and gives its bytes back', async () => {
    const user = await patient(world)
    const examId = await readyUpload(world, user)
    const before = await usage(world, user)
    const instance = await world.app.db
      .selectFrom('instances')
      .selectAll()
      .where('exam_id', '=', examId)
      .orderBy('instance_number')
      .executeTakeFirstOrThrow()
    assert.ok(storedKeys(world).includes(instance.file_key))
    const deleted = await call(
      world,
      user,
      'DELETE',
      `/main/dicom-upload/exams/${examId}/instances/${instance.id}`,
    )
    assert.equal(deleted.statusCode, 200, JSON.stringify(deleted.body))
    const keys = storedKeys(world)
    assert.ok(!keys.includes(instance.file_key))
    assert.ok(!instance.pixels_key || !keys.includes(instance.pixels_key))
    const exam = await world.app.db
      .selectFrom('exams')
      .select(['instance_count', 'size_bytes'])
      .where('id', '=', examId)
      .executeTakeFirstOrThrow()
    assert.equal(exam.instance_count, 19)
    assert.equal(await usage(world, user), before - instance.file_size)
    assert.equal(Number(exam.size_bytes), before - instance.file_size)
  })

  test('deletes as the apps send them (Content-Type: application/json, no body) are carried out', async () => {
    // wx.request and the H5 wrapper put the JSON content type on every call, a bodyless DELETE too.
    const user = await patient(world)
    const examId = await readyUpload(world, user)
    const headers = { ...bearer(user.token), 'content-type': 'application/json;charset=UTF-8' }
    const removed = await world.app.inject({
      method: 'DELETE',
      url: `/main/dicom-upload/exams/${examId}`,
      headers,
    })
    assert.equal(removed.statusCode, 200, removed.body)
    const gone = await call(world, user, 'GET', `/main/exams/${examId}`)
    assert.equal(gone.statusCode, 404)
    // A POST still needs its body: an empty one is refused in Chinese.
    const empty = await world.app.inject({ method: 'POST', url: '/main/dicom-upload', headers })
    assert.equal(empty.statusCode, 400)
    assert.equal(empty.json().error, '请求内容为空')
  })

  test('deleting the study removes every object (files, pixels, previews, photos) and gives the quota back', async () => {
    const user = await patient(world)
    const stranger = await patient(world)
    const examId = await readyUpload(world, user)
    const photo = await postPhotos(world, user, examId, [
      { name: 'a.jpg', type: 'image/jpeg', bytes: await phonePhoto(128, 64) },
    ])
    assert.equal(photo.statusCode, 200, JSON.stringify(photo.body))
    // A preview WADO rendered and cached earlier.
    await world.app.store.put(`previews/${examId}/x/thumbnail-0.jpg`, Buffer.from('jpeg'), {
      contentType: 'image/jpeg',
    })
    const rows = await world.app.db
      .selectFrom('instances')
      .select(['file_key', 'pixels_key'])
      .where('exam_id', '=', examId)
      .execute()
    const keys = [
      ...rows.flatMap((row) => [row.file_key, ...(row.pixels_key ? [row.pixels_key] : [])]),
      `previews/${examId}/x/thumbnail-0.jpg`,
      `exam-files/${examId}/${(photo.body.data as ReportPhotos).files[0]!.id}.jpg`,
    ]
    assert.ok(keys.every((key) => storedKeys(world).includes(key)))
    assert.ok((await usage(world, user)) > 0)

    const foreign = await call(world, stranger, 'DELETE', `/main/dicom-upload/exams/${examId}`)
    assert.equal(foreign.statusCode, 404)
    const deleted = await call(world, user, 'DELETE', `/main/dicom-upload/exams/${examId}`)
    assert.equal(deleted.statusCode, 200, JSON.stringify(deleted.body))

    const left = storedKeys(world)
    assert.deepEqual(
      keys.filter((key) => left.includes(key)),
      [],
    )
    assert.equal(await usage(world, user), 0)
    const exam = await world.app.db
      .selectFrom('exams')
      .select('id')
      .where('id', '=', examId)
      .executeTakeFirst()
    assert.equal(exam, undefined)
    const again = await call(world, user, 'DELETE', `/main/dicom-upload/exams/${examId}`)
    assert.equal(again.statusCode, 404)
  })

  test('the same file deleted five times at once: one 200, four 404, its bytes given back once', async () => {
    const user = await patient(world)
    const other = await otherStudy(world, user, 1)
    const examId = await readyUpload(world, user)
    const before = await usage(world, user)
    const instance = await world.app.db
      .selectFrom('instances')
      .select(['id', 'file_size'])
      .where('exam_id', '=', examId)
      .orderBy('instance_number')
      .executeTakeFirstOrThrow()
    const url = `/main/dicom-upload/exams/${examId}/instances/${instance.id}`
    const answers = await Promise.all(
      Array.from({ length: 5 }, () => call(world, user, 'DELETE', url)),
    )
    assert.deepEqual(answers.map((answer) => answer.statusCode).sort(), [200, 404, 404, 404, 404])
    for (const answer of answers.filter((a) => a.statusCode === 404)) {
      assert.equal(answer.body.error, '文件不存在或已删除')
    }
    const exam = await world.app.db
      .selectFrom('exams')
      .select(['instance_count', 'size_bytes'])
      .where('id', '=', examId)
      .executeTakeFirstOrThrow()
    assert.equal(exam.instance_count, 19)
    assert.equal(await usage(world, user), before - Number(instance.file_size))
    assert.equal(await usage(world, user), Number(exam.size_bytes) + other)
  })

  test('one-file deletes racing the study delete: every byte is given back once, whoever wins', async () => {
    const user = await patient(world)
    const other = await otherStudy(world, user, 2)
    // A few rounds, each with the deletes sent in another order.
    for (let round = 0; round < 3; round++) {
      const examId = await readyUpload(world, user)
      const rows = await world.app.db
        .selectFrom('instances')
        .select('id')
        .where('exam_id', '=', examId)
        .orderBy('instance_number')
        .limit(2)
        .execute()
      const one = (id: string) => `/main/dicom-upload/exams/${examId}/instances/${id}`
      const deletes = [
        one(rows[0]!.id),
        one(rows[0]!.id),
        one(rows[1]!.id),
        `/main/dicom-upload/exams/${examId}`,
      ]
      for (let i = 0; i < round; i++) deletes.push(deletes.shift()!)
      const answers = await Promise.all(deletes.map((url) => call(world, user, 'DELETE', url)))
      const study = answers[deletes.indexOf(`/main/dicom-upload/exams/${examId}`)]!
      assert.equal(study.statusCode, 200, JSON.stringify(study.body))
      for (const answer of answers) assert.ok([200, 404].includes(answer.statusCode))
      assert.equal(await usage(world, user), other, `round ${round}`)
    }
  })

  test('report photos: EXIF is gone, the picture is turned upright, PNG becomes JPEG; owner only', async () => {
    const user = await patient(world)
    const stranger = await patient(world)
    const examId = await readyUpload(world, user)
    const jpeg = await phonePhoto(128, 64)
    assert.ok(jpeg.includes(Buffer.from('116.4074')))
    const png = rgbaPng(80, 64)
    const posted = await postPhotos(world, user, examId, [
      { name: 'IMG_0001.jpg', type: 'image/jpeg', bytes: jpeg },
      { name: 'screenshot.png', type: 'image/png', bytes: png },
    ])
    assert.equal(posted.statusCode, 200, JSON.stringify(posted.body))
    const files = (posted.body.data as ReportPhotos).files
    assert.equal(files.length, 2)
    // Orientation 6: the 128×64 picture is stored 64×128.
    assert.deepEqual([files[0]!.width, files[0]!.height], [64, 128])
    assert.deepEqual([files[1]!.width, files[1]!.height], [80, 64])
    assert.ok(files.every((file) => file.mimeType === 'image/jpeg'))

    const got = await world.app.inject({
      method: 'GET',
      url: `/main/dicom-upload/files/${files[0]!.id}`,
      headers: bearer(user.token),
    })
    assert.equal(got.statusCode, 200)
    assert.equal(got.headers['content-type'], 'image/jpeg')
    const stored = got.rawPayload
    assert.ok(!stored.includes(Buffer.from('Exif')), 'no EXIF block')
    assert.ok(!stored.includes(Buffer.from('116.4074')), 'no GPS note')
    assert.ok(!stored.includes(Buffer.from('SecretPhone')), 'no device name')
    const decoded = await decodeJpeg8(stored)
    assert.deepEqual([decoded.width, decoded.height], [64, 128])
    // Rotated clockwise: the red left half is now the top half.
    const top = decoded.bytes.subarray((10 * 64 + 32) * 3, (10 * 64 + 32) * 3 + 3)
    const bottom = decoded.bytes.subarray((117 * 64 + 32) * 3, (117 * 64 + 32) * 3 + 3)
    assert.ok(top[0]! > 200 && top[2]! < 60, `top is red: ${[...top]}`)
    assert.ok(bottom[2]! > 200 && bottom[0]! < 60, `bottom is blue: ${[...bottom]}`)

    const pngStored = await world.app.inject({
      method: 'GET',
      url: `/main/dicom-upload/files/${files[1]!.id}`,
      headers: bearer(user.token),
    })
    assert.ok(!pngStored.rawPayload.includes(Buffer.from('116.4074')))
    const pngPixels = await decodeJpeg8(pngStored.rawPayload)
    // The transparent right half is composited over white.
    const right = pngPixels.bytes.subarray((20 * 80 + 70) * 3, (20 * 80 + 70) * 3 + 3)
    assert.ok(
      [...right].every((v) => v > 230),
      `white: ${[...right]}`,
    )

    const foreign = await world.app.inject({
      method: 'GET',
      url: `/main/dicom-upload/files/${files[0]!.id}`,
      headers: bearer(stranger.token),
    })
    assert.equal(foreign.statusCode, 404)
    const foreignPost = await postPhotos(world, stranger, examId, [
      { name: 'a.jpg', type: 'image/jpeg', bytes: jpeg },
    ])
    assert.equal(foreignPost.statusCode, 404)

    const used = await usage(world, user)
    const removed = await call(world, user, 'DELETE', `/main/dicom-upload/files/${files[0]!.id}`)
    assert.equal(removed.statusCode, 200)
    assert.equal(await usage(world, user), used - files[0]!.sizeBytes)
    assert.ok(!storedKeys(world).includes(`exam-files/${examId}/${files[0]!.id}.jpg`))
    const gone = await world.app.inject({
      method: 'GET',
      url: `/main/dicom-upload/files/${files[0]!.id}`,
      headers: bearer(user.token),
    })
    assert.equal(gone.statusCode, 404)
  })

  test('photos that are not JPG/PNG images are refused by their bytes, whatever their name', async () => {
    const user = await patient(world)
    const examId = await readyUpload(world, user)
    const before = await usage(world, user)
    const webp = Buffer.concat([Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'), Buffer.alloc(40)])
    for (const bytes of [Buffer.from('<svg onload=alert(1)>'), webp, testInstance()]) {
      const refused = await postPhotos(world, user, examId, [
        { name: 'photo.jpg', type: 'image/jpeg', bytes },
      ])
      assert.equal(refused.statusCode, 400)
      assert.equal(refused.body.error, '报告照片只支持 JPG 或 PNG 图片')
    }
    // One bad file among good ones: nothing is added.
    const mixed = await postPhotos(world, user, examId, [
      { name: 'a.jpg', type: 'image/jpeg', bytes: await phonePhoto(64, 64) },
      { name: 'b.jpg', type: 'image/jpeg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0x00, 0x01]) },
    ])
    assert.equal(mixed.statusCode, 400)
    assert.equal(mixed.body.error, '照片无法识别，请换一张重试')
    const count = await world.app.db
      .selectFrom('exam_files')
      .select('id')
      .where('exam_id', '=', examId)
      .execute()
    assert.equal(count.length, 0)
    assert.equal(await usage(world, user), before)
    const none = await world.app.inject({
      method: 'POST',
      url: `/main/dicom-upload/exams/${examId}/photos`,
      headers: { ...bearer(user.token), 'content-type': 'application/json' },
      payload: {},
    })
    assert.equal(none.statusCode, 400)
  })

  test('an upload still processing cannot be cancelled; a finished one is deleted as a study', async () => {
    const user = await patient(world)
    const zip = writeZip([{ name: 'a.dcm', data: testInstance() }])
    const state: UploadState = await sendZip(world, user, zip)
    const done = await settled(world, user, state.uploadId)
    const refused = await call(world, user, 'DELETE', `/main/dicom-upload/${done.uploadId}`)
    assert.equal(refused.statusCode, 400)
    assert.equal(refused.body.error, '影像已解析完成，请在影像详情中删除')
  })
})
