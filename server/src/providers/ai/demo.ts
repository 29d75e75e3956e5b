import type { AiProvider } from '@contract/main/opinions'
import {
  LAA_BELOW_HU,
  LUNG_MAX_HU,
  LUNG_MIN_HU,
  type SliceCounts,
  measureSlice,
  sliceSpacing,
  summarise,
  toHu,
} from './lung-threshold'
import type { AiAnalysisProvider, AiAnalysisResult, AiSeries, AiSlice, AiStudy } from './types'

/*
 * 演示算法 (demo mode, or AI_PROVIDER=demo): lung volume, mean lung density and LAA%-950 of a chest
 * CT by thresholds (lung-threshold.ts), computed from the pixels, deterministic. It is not a medical
 * device and says so wherever its text is; it names no lesion, nodule or diagnosis, only the numbers
 * it computed. What it cannot measure it refuses with the reason.
 */

export const DEMO_AI_NOTICE = '演示算法，非医疗器械'

export const DEMO_AI_PROVIDER: AiProvider = {
  id: 'demo-lung-threshold',
  name: '演示算法：肺体积与肺密度（阈值法）',
  kind: 'demo',
  notice: DEMO_AI_NOTICE,
}

/** The chest CT report template the draft fills (its field `lungs`). */
export const CHEST_CT_TEMPLATE = 'chest-ct'

/** Fewer slices do not make a volume worth stating. */
export const MIN_SLICES = 8
/** A series larger than this is refused (time on a shared 2-core machine, not memory). */
export const MAX_SLICES = 2000
/** Less "lung" than this: the threshold found no lungs (not a chest CT, or no lungs in view). */
const MIN_LUNG_CM3 = 50

export const DEMO_AI_REASONS = {
  noCt: '演示算法只分析 CT 影像，本检查没有可分析的 CT 序列',
  multiFrame: '演示算法暂不支持多帧 CT 图像',
  tooFew: (n: number) => `可分析的 CT 图像只有 ${n} 层，演示算法至少需要 ${MIN_SLICES} 层`,
  tooMany: `CT 序列超过 ${MAX_SLICES} 层，演示算法不分析这么大的序列`,
  noSpacing: '图像缺少像素间距（Pixel Spacing），无法计算体积',
  mixedSpacing: '序列中各层的像素间距或尺寸不一致，无法计算体积',
  noSliceSpacing: '无法确定层间距（图像缺少位置和层厚信息），无法计算体积',
  noLung: `未在体内找到 ${LUNG_MIN_HU} 至 ${LUNG_MAX_HU} HU 的低密度区域，可能不是胸部 CT，演示算法无法测量`,
} as const

const minus = (text: string) => text.replace(/^-/, '−')

/** The analysable series: CT with decoded pixels, the one with most such slices. */
function pickSeries(study: AiStudy): { series: AiSeries; slices: AiSlice[] } | null {
  let best: { series: AiSeries; slices: AiSlice[] } | null = null
  for (const series of study.series) {
    if ((series.modality ?? '').toUpperCase() !== 'CT') continue
    const slices = series.slices.filter((s) => s.readPixels !== null && s.rows > 0 && s.columns > 0)
    if (!best || slices.length > best.slices.length) best = { series, slices }
  }
  return best && best.slices.length > 0 ? best : null
}

export async function analyseLungs(study: AiStudy, signal: AbortSignal): Promise<AiAnalysisResult> {
  const picked = pickSeries(study)
  if (!picked) return { ok: false, reason: DEMO_AI_REASONS.noCt }
  const { series, slices } = picked
  if (slices.some((s) => s.frameCount > 1)) return { ok: false, reason: DEMO_AI_REASONS.multiFrame }
  if (slices.length < MIN_SLICES) {
    return { ok: false, reason: DEMO_AI_REASONS.tooFew(slices.length) }
  }
  if (slices.length > MAX_SLICES) return { ok: false, reason: DEMO_AI_REASONS.tooMany }
  const first = slices[0]!
  const spacing = first.pixelSpacing
  if (!spacing || !(spacing[0] > 0) || !(spacing[1] > 0)) {
    return { ok: false, reason: DEMO_AI_REASONS.noSpacing }
  }
  const same = slices.every(
    (s) =>
      s.rows === first.rows &&
      s.columns === first.columns &&
      s.pixelSpacing !== null &&
      Math.abs(s.pixelSpacing[0] - spacing[0]) < 1e-3 &&
      Math.abs(s.pixelSpacing[1] - spacing[1]) < 1e-3,
  )
  if (!same) return { ok: false, reason: DEMO_AI_REASONS.mixedSpacing }
  const step = sliceSpacing(slices)
  if (step === null) return { ok: false, reason: DEMO_AI_REASONS.noSliceSpacing }

  const counts: SliceCounts[] = []
  let hu: Float32Array | undefined
  for (const slice of slices) {
    signal.throwIfAborted()
    const stored = await slice.readPixels!()
    if (stored.length < slice.rows * slice.columns) {
      return { ok: false, reason: DEMO_AI_REASONS.mixedSpacing }
    }
    hu = toHu(
      stored.subarray(0, slice.rows * slice.columns),
      slice.rescaleSlope,
      slice.rescaleIntercept,
      hu,
    )
    counts.push(measureSlice(hu, slice.rows, slice.columns))
  }
  const m = summarise(counts, [spacing[0], spacing[1], step])
  if (m.volumeCm3 < MIN_LUNG_CM3) return { ok: false, reason: DEMO_AI_REASONS.noLung }

  const volume = Math.round(m.volumeCm3).toLocaleString('en-US')
  const mean = minus(String(Math.round(m.meanHu)))
  const laa = m.laa950Percent.toFixed(1)
  const text =
    `双肺体积约 ${volume} cm³，平均肺密度 ${mean} HU，低于 ${minus(String(LAA_BELOW_HU))} HU ` +
    `的体素占 ${laa}%（${DEMO_AI_NOTICE}：阈值法计算，非诊断）`
  return {
    ok: true,
    templateId: CHEST_CT_TEMPLATE,
    seriesUid: series.seriesUid,
    values: { lungs: text },
    computed: [
      { label: '双肺体积（阈值法）', value: m.volumeCm3.toFixed(1), unit: 'cm³' },
      { label: '平均肺密度', value: m.meanHu.toFixed(1), unit: 'HU' },
      {
        label: `低于 ${minus(String(LAA_BELOW_HU))} HU 的体素占比（LAA%-950）`,
        value: m.laa950Percent.toFixed(2),
        unit: '%',
      },
      { label: '分析层数', value: String(slices.length), unit: '层' },
      { label: '层间距', value: step.toFixed(2), unit: 'mm' },
    ],
  }
}

export const demoAiProvider: AiAnalysisProvider = {
  info: DEMO_AI_PROVIDER,
  modalities: ['CT'],
  analyse: analyseLungs,
}
