// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { encodeJpeg, JpegInputTooSmallError } from '../../src/dicom/codecs'
import { encodePng } from '../../src/dicom/png'
import { cleanPhoto, PHOTO_TOO_SMALL } from '../../src/images'

const noise = (length: number) => new Uint8Array(length).map(() => Math.floor(Math.random() * 256))
const stillWorks = async () =>
  (await encodeJpeg(new Uint8Array(512 * 512).fill(90), 512, 512, 1, 80)).length > 0

test('inputs that would overflow the WASM encoder are refused or capped, and it keeps working', async () => {
  await assert.rejects(encodeJpeg(noise(4), 2, 2, 1, 80), JpegInputTooSmallError)
  assert.ok(await stillWorks())
  // Noise at quality 100 produced a JPEG bigger than its pixels and broke every later encode.
  const capped = await encodeJpeg(noise(128 * 128), 128, 128, 1, 100)
  assert.ok(capped.length < 128 * 128)
  assert.ok(await stillWorks())
  const rgb = await encodeJpeg(noise(64 * 64 * 3), 64, 64, 3, 100)
  assert.ok(rgb.length < 64 * 64 * 3)
  assert.ok(await stillWorks())
})

test('a report photo too small to read is refused in Chinese, not a broken encoder', async () => {
  const tiny = Buffer.from(encodePng(noise(16 * 16), 16, 16, 1))
  await assert.rejects(cleanPhoto(tiny), (error: Error) => error.message === PHOTO_TOO_SMALL)
  assert.ok(await stillWorks())
})
