// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { cleanPhoto, PHOTO_TYPE_REFUSED, PhotoRefusedError } from '../../src/images'

/*
 * A refused photo says why by a code (PhotoRefusedError.problem); each caller words it for its own
 * photos (证书照片, 反馈图片, 封面) by that code, never by reading the default text.
 */

const NOT_AN_IMAGE = Buffer.from('这不是图片 just text, not a JPEG or PNG')

test('a refused photo carries its problem and the caller’s words, else a report photo’s', async () => {
  await assert.rejects(cleanPhoto(NOT_AN_IMAGE), (error: unknown) => {
    assert.ok(error instanceof PhotoRefusedError)
    assert.equal(error.problem, 'type')
    assert.equal(error.statusCode, 400)
    assert.equal(error.userMessage, PHOTO_TYPE_REFUSED)
    return true
  })
  await assert.rejects(cleanPhoto(NOT_AN_IMAGE, { type: '证书照片只支持 JPG 或 PNG 格式' }), {
    userMessage: '证书照片只支持 JPG 或 PNG 格式',
  })
  // Words for other problems only: this one keeps the default.
  await assert.rejects(cleanPhoto(NOT_AN_IMAGE, { unreadable: '图片无法识别' }), {
    userMessage: PHOTO_TYPE_REFUSED,
  })
})
