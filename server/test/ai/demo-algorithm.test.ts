import assert from 'node:assert/strict'
import { test } from 'node:test'
import { decodeFrames, parse } from '../../src/dicom'
import { demoChestCt } from '../../src/domain/demo-records/phantoms'
import {
  analyseLungs,
  type AiSlice,
  type AiStudy,
  DEMO_AI_NOTICE,
  DEMO_AI_REASONS,
  MIN_SLICES,
} from '../../src/providers/ai'
import { BOX, boxStudy, boxTruth } from './support'

/*
 * The 演示算法 against truths known without it: the box phantom (support.ts) whose lung volume,
 * mean density and LAA%-950 follow from its definition, and the demo patient's chest CT phantom
 * (domain/demo-records), whose lungs are ellipses of known axes. And every refusal it owes.
 */

const signal = new AbortController().signal

function computed(result: Awaited<ReturnType<typeof analyseLungs>>, label: string): number {
  assert.ok(result.ok)
  const entry = result.computed.find((c) => c.label.startsWith(label))
  assert.ok(entry, label)
  return Number(entry.value)
}

test('the box phantom: the volume, mean density and LAA%-950 it was built with', async () => {
  const truth = boxTruth()
  const result = await analyseLungs(boxStudy(), signal)
  assert.ok(result.ok, result.ok ? '' : result.reason)
  assert.equal(result.templateId, 'chest-ct')
  assert.equal(computed(result, '双肺体积'), Number(truth.volumeCm3.toFixed(1)))
  assert.equal(computed(result, '平均肺密度'), Number(truth.meanHu.toFixed(1)))
  assert.equal(computed(result, '低于'), Number(truth.laaPercent.toFixed(2)))
  // The slice step comes from the image positions (4 mm), not the stated thickness (5 mm).
  assert.equal(computed(result, '层间距'), BOX.sliceStep)
  assert.equal(computed(result, '分析层数'), BOX.slices)
  // Only the lungs field, only the numbers, and the notice.
  assert.deepEqual(Object.keys(result.values), ['lungs'])
  const text = result.values.lungs as string
  assert.match(text, /^双肺体积约 74 cm³，平均肺密度 −802 HU，低于 −950 HU 的体素占 1\.3%/)
  assert.ok(text.includes(DEMO_AI_NOTICE))
  for (const word of ['结节', '肺气肿', '病灶', '诊断为', '考虑', '异常']) {
    assert.ok(!text.includes(word), `the draft says ${word}`)
  }
})

test('deterministic: the same study gives the same draft', async () => {
  const a = await analyseLungs(boxStudy(), signal)
  const b = await analyseLungs(boxStudy(), signal)
  assert.deepEqual(a, b)
})

test('without image positions the spacing is SpacingBetweenSlices, else the thickness', async () => {
  const truth = boxTruth()
  const byThickness = await analyseLungs(boxStudy({ imagePosition: null }), signal)
  assert.equal(
    computed(byThickness, '双肺体积'),
    Number(((truth.volumeCm3 * BOX.sliceThickness) / BOX.sliceStep).toFixed(1)),
  )
  const bySpacing = await analyseLungs(
    boxStudy({ imagePosition: null, spacingBetweenSlices: BOX.sliceStep }),
    signal,
  )
  assert.equal(computed(bySpacing, '双肺体积'), Number(truth.volumeCm3.toFixed(1)))
})

test('what it cannot measure it refuses, with the reason', async () => {
  const refused = async (study: AiStudy) => {
    const result = await analyseLungs(study, signal)
    assert.equal(result.ok, false)
    return result.ok ? '' : result.reason
  }
  const mr = boxStudy()
  mr.series[0]!.modality = 'MR'
  assert.equal(await refused(mr), DEMO_AI_REASONS.noCt)
  assert.equal(await refused(boxStudy({ pixelSpacing: null })), DEMO_AI_REASONS.noSpacing)
  assert.equal(await refused(boxStudy({}, MIN_SLICES - 1)), DEMO_AI_REASONS.tooFew(MIN_SLICES - 1))
  assert.equal(
    await refused(
      boxStudy({ imagePosition: null, sliceThickness: null, spacingBetweenSlices: null }),
    ),
    DEMO_AI_REASONS.noSliceSpacing,
  )
  assert.equal(await refused(boxStudy({ frameCount: 3 })), DEMO_AI_REASONS.multiFrame)
  assert.equal(await refused(boxStudy({ readPixels: null })), DEMO_AI_REASONS.noCt)
  // A body with no air inside it (a head, a limb): no lungs found, nothing claimed.
  const solid = boxStudy({
    readPixels: async () => new Uint16Array(BOX.rows * BOX.columns).fill((-50 + 1024) / 2),
  })
  assert.equal(await refused(solid), DEMO_AI_REASONS.noLung)
})

test('air connected to the border is outside the body, whatever its shape', async () => {
  // A channel of air from the image edge into the lung box joins the lung to the outside: the
  // lung's voxels on that slice are then outside air, not lung.
  const truth = boxTruth()
  const study = boxStudy()
  const slices = study.series[0]!.slices
  const original = slices[6]!.readPixels!
  slices[6] = {
    ...slices[6]!,
    readPixels: async () => {
      const stored = (await original()) as Uint16Array
      for (let c = 0; c <= 16; c++) stored[30 * BOX.columns + c] = (-1000 + 1024) / 2
      return stored
    },
  } satisfies AiSlice
  const result = await analyseLungs(study, signal)
  const perSlice = (24 * 32 * BOX.pixelSpacing[0] * BOX.pixelSpacing[1] * BOX.sliceStep) / 1000
  assert.equal(computed(result, '双肺体积'), Number((truth.volumeCm3 - perSlice).toFixed(1)))
})

test('the demo patient’s chest CT: lungs of the phantom’s ellipses, at their density', async () => {
  const study = demoChestCt({
    patient: { name: '演示患者', idNumber: 'X', sex: 'M', birthDate: '19900307' },
    accessionNumber: 'CT1',
    date: '20261015',
    time: '143000',
    institution: '示例市中心医院',
  })
  const slices: AiSlice[] = []
  for (const bytes of study.files) {
    const instance = parse(bytes)
    const image = instance.image!
    const decoded = await decodeFrames(instance)
    assert.ok(decoded.ok)
    const frame = decoded.frames[0]!
    assert.equal(frame.kind, 'mono')
    slices.push({
      sopInstanceUid: instance.sopInstanceUid,
      instanceNumber: instance.instanceNumber ?? null,
      rows: image.rows,
      columns: image.columns,
      frameCount: image.numberOfFrames,
      rescaleSlope: image.rescaleSlope,
      rescaleIntercept: image.rescaleIntercept,
      pixelSpacing: image.pixelSpacing ?? null,
      imagePosition: image.imagePositionPatient ?? null,
      imageOrientation: image.imageOrientationPatient ?? null,
      sliceThickness: instance.dataSet.floatString('x00180050') ?? null,
      spacingBetweenSlices: null,
      readPixels: async () => (frame.kind === 'mono' ? frame.pixels : new Uint8Array()),
    })
  }
  const result = await analyseLungs(
    {
      examId: 'demo',
      modalities: ['CT'],
      series: [{ seriesUid: 's', modality: 'CT', bodyPart: null, description: null, slices }],
    },
    signal,
  )
  assert.ok(result.ok, result.ok ? '' : result.reason)
  // The phantom's geometry (phantoms.ts demoChestCt, copied): ellipses painted in this order, a
  // later one over an earlier; the lungs are the two at −860 HU, tapered towards their ends. Their
  // visible area at each slice, sampled on a 0.5 mm grid (not the image's pixels), times 5 mm.
  const ellipses = [
    { x: 0, y: 0, a: 165, b: 115, lung: false },
    { x: 0, y: 0, a: 155, b: 105, lung: false },
    { x: -75, y: -8, a: 58, b: 78, lung: true, zFrom: 0, zTo: 120, taper: true },
    { x: 78, y: -8, a: 60, b: 80, lung: true, zFrom: 0, zTo: 120, taper: true },
    { x: 22, y: 12, a: 58, b: 46, lung: false, zFrom: 55, zTo: 120 },
    { x: -12, y: 38, a: 13, b: 13, lung: false },
    { x: 0, y: 78, a: 20, b: 18, lung: false },
    { x: 0, y: 78, a: 16, b: 14, lung: false },
    { x: 0, y: 102, a: 8, b: 7, lung: false },
    { x: -88, y: -30, a: 4, b: 4, lung: false, zFrom: 28, zTo: 36 },
  ]
  const step = 0.5
  let expected = 0
  for (let s = 0; s < 24; s++) {
    const z = s * 5 + 2.5
    const present = ellipses.flatMap((e) => {
      if (e.zFrom !== undefined && (z < e.zFrom || z > e.zTo!)) return []
      let scale = 1
      if (e.taper) {
        const t = (z - e.zFrom!) / (e.zTo! - e.zFrom!)
        scale = Math.sqrt(Math.max(0.05, Math.sin(Math.PI * Math.min(1, t * 0.9 + 0.1))))
      }
      return [{ ...e, a: e.a * scale, b: e.b * scale }]
    })
    let points = 0
    for (let y = -120; y <= 120; y += step) {
      for (let x = -170; x <= 170; x += step) {
        let lung = false
        for (const e of present) {
          if (((x - e.x) / e.a) ** 2 + ((y - e.y) / e.b) ** 2 <= 1) lung = e.lung
        }
        if (lung) points += 1
      }
    }
    expected += (points * step * step * 5) / 1000
  }
  const volume = computed(result, '双肺体积')
  assert.ok(Math.abs(volume - expected) / expected < 0.02, `${volume} cm³ vs ${expected}`)
  // −860 HU with ±12 HU of noise; nothing below −950.
  assert.ok(Math.abs(computed(result, '平均肺密度') + 860) < 1)
  assert.equal(computed(result, '低于'), 0)
  assert.equal(computed(result, '层间距'), 5)
})
