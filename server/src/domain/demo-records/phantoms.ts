import { encodeJpeg } from '../../dicom/codecs'
import {
  type Element,
  encapsulated,
  encodeRleFrame,
  EXPLICIT_LE,
  JPEG_BASELINE,
  newUid,
  RLE_LOSSLESS,
  writePart10,
} from '../../dicom/write'

/*
 * Synthetic studies for demo mode: mathematical phantoms (ellipses and ellipsoids), not images of
 * any person, every one labelled 演示 in its descriptions. They exercise what real studies do: a
 * multi-slice MR (16-bit), a 512² CT with rescale to HU and two windows, an RLE-compressed CT and a
 * JPEG-compressed radiograph. Deterministic, so every fresh demo database looks the same.
 */

export interface DemoPatient {
  name: string
  idNumber: string
  phone?: string
  sex: 'M' | 'F'
  /** YYYYMMDD */
  birthDate: string
}

export interface DemoStudyInput {
  patient: DemoPatient
  accessionNumber: string
  /** YYYYMMDD and HHMMSS */
  date: string
  time: string
  institution: string
}

export interface DemoStudy {
  studyUid: string
  files: Buffer[]
}

/** A small deterministic PRNG (mulberry32): the same noise on every seed. */
function random(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** Attributes every instance of a study shares. */
function common(
  input: DemoStudyInput,
  studyUid: string,
  seriesUid: string,
  modality: string,
  studyDescription: string,
  seriesDescription: string,
): Element[] {
  const { patient } = input
  return [
    { tag: '00080005', vr: 'CS', value: 'ISO_IR 192' },
    { tag: '00080020', vr: 'DA', value: input.date },
    { tag: '00080030', vr: 'TM', value: input.time },
    { tag: '00080050', vr: 'SH', value: input.accessionNumber },
    { tag: '00080060', vr: 'CS', value: modality },
    { tag: '00080070', vr: 'LO', value: '演示数据（合成体模）' },
    { tag: '00080080', vr: 'LO', value: input.institution },
    { tag: '00081030', vr: 'LO', value: studyDescription },
    { tag: '0008103E', vr: 'LO', value: seriesDescription },
    { tag: '00100010', vr: 'PN', value: patient.name },
    { tag: '00100020', vr: 'LO', value: patient.idNumber },
    { tag: '00100030', vr: 'DA', value: patient.birthDate },
    { tag: '00100040', vr: 'CS', value: patient.sex },
    ...(patient.phone ? [{ tag: '00102154', vr: 'SH', value: patient.phone }] : []),
    { tag: '0020000D', vr: 'UI', value: studyUid },
    { tag: '0020000E', vr: 'UI', value: seriesUid },
    { tag: '00200011', vr: 'IS', value: '1' },
  ]
}

function imageElements(opts: {
  sopClass: string
  sopUid: string
  index: number
  rows: number
  columns: number
  spacing: number
  thickness: number
  z: number
  bits: 8 | 16
  bitsStored: number
  signed: boolean
  windows: { center: number; width: number }[]
  rescale?: { slope: number; intercept: number }
  photometric?: string
}): Element[] {
  const elements: Element[] = [
    { tag: '00080016', vr: 'UI', value: opts.sopClass },
    { tag: '00080018', vr: 'UI', value: opts.sopUid },
    { tag: '00180050', vr: 'DS', value: String(opts.thickness) },
    { tag: '00200013', vr: 'IS', value: String(opts.index + 1) },
    { tag: '00200032', vr: 'DS', value: ['-175', '-175', opts.z.toFixed(1)] },
    { tag: '00200037', vr: 'DS', value: ['1', '0', '0', '0', '1', '0'] },
    { tag: '00201041', vr: 'DS', value: opts.z.toFixed(1) },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: opts.photometric ?? 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [opts.rows] },
    { tag: '00280011', vr: 'US', value: [opts.columns] },
    { tag: '00280030', vr: 'DS', value: [String(opts.spacing), String(opts.spacing)] },
    { tag: '00280100', vr: 'US', value: [opts.bits] },
    { tag: '00280101', vr: 'US', value: [opts.bitsStored] },
    { tag: '00280102', vr: 'US', value: [opts.bitsStored - 1] },
    { tag: '00280103', vr: 'US', value: [opts.signed ? 1 : 0] },
    { tag: '00281050', vr: 'DS', value: opts.windows.map((w) => String(w.center)) },
    { tag: '00281051', vr: 'DS', value: opts.windows.map((w) => String(w.width)) },
  ]
  if (opts.rescale) {
    elements.push(
      { tag: '00281052', vr: 'DS', value: String(opts.rescale.intercept) },
      { tag: '00281053', vr: 'DS', value: String(opts.rescale.slope) },
    )
  }
  return elements
}

const MR_IMAGE = '1.2.840.10008.5.1.4.1.1.4'
const CT_IMAGE = '1.2.840.10008.5.1.4.1.1.2'
const DX_IMAGE = '1.2.840.10008.5.1.4.1.1.1.1'

/**
 * The modified 3-D Shepp–Logan head phantom (Kak & Slaney; Toft): ten ellipsoids
 * [intensity, a, b, c, x0, y0, z0, rotation about z in degrees], in a unit cube.
 */
const SHEPP_LOGAN: readonly (readonly number[])[] = [
  [1, 0.69, 0.92, 0.81, 0, 0, 0, 0],
  [-0.8, 0.6624, 0.874, 0.78, 0, -0.0184, 0, 0],
  [-0.2, 0.11, 0.31, 0.22, 0.22, 0, 0, -18],
  [-0.2, 0.16, 0.41, 0.28, -0.22, 0, 0, 18],
  [0.1, 0.21, 0.25, 0.41, 0, 0.35, -0.15, 0],
  [0.1, 0.046, 0.046, 0.05, 0, 0.1, 0.25, 0],
  [0.1, 0.046, 0.046, 0.05, 0, -0.1, 0.25, 0],
  [0.1, 0.046, 0.023, 0.05, -0.08, -0.605, 0, 0],
  [0.1, 0.023, 0.023, 0.02, 0, -0.606, 0, 0],
  [0.1, 0.023, 0.046, 0.02, 0.06, -0.605, 0, 0],
]

function sheppLogan(x: number, y: number, z: number): number {
  let value = 0
  for (const [intensity, a, b, c, x0, y0, z0, degrees] of SHEPP_LOGAN) {
    const angle = ((degrees ?? 0) * Math.PI) / 180
    const dx = x - x0!
    const dy = y - y0!
    const u = dx * Math.cos(angle) + dy * Math.sin(angle)
    const v = -dx * Math.sin(angle) + dy * Math.cos(angle)
    const w = z - z0!
    if ((u / a!) ** 2 + (v / b!) ** 2 + (w / c!) ** 2 <= 1) value += intensity!
  }
  return value
}

/** 头颅 MR 平扫: 20 axial slices of 256², 16-bit, from the Shepp–Logan phantom. */
export function demoBrainMr(input: DemoStudyInput): DemoStudy {
  const size = 256
  const slices = 20
  const studyUid = newUid()
  const seriesUid = newUid()
  const noise = random(7)
  const files: Buffer[] = []
  for (let s = 0; s < slices; s++) {
    const z = -0.57 + (1.14 * s) / (slices - 1)
    const pixels = new Uint16Array(size * size)
    for (let row = 0; row < size; row++) {
      // Image rows run downwards, the phantom's y upwards.
      const y = 1 - (2 * (row + 0.5)) / size
      for (let col = 0; col < size; col++) {
        const x = (2 * (col + 0.5)) / size - 1
        const value = sheppLogan(x, y, z)
        pixels[row * size + col] = Math.max(0, Math.round(value * 1200 + noise() * 18))
      }
    }
    files.push(
      writePart10([
        ...common(input, studyUid, seriesUid, 'MR', '头颅 MR 平扫（演示）', 'T2WI 轴位（演示）'),
        ...imageElements({
          sopClass: MR_IMAGE,
          sopUid: newUid(),
          index: s,
          rows: size,
          columns: size,
          spacing: 0.9,
          thickness: 6,
          z: -57 + 6 * s,
          bits: 16,
          bitsStored: 12,
          signed: false,
          windows: [{ center: 300, width: 700 }],
        }),
        { tag: '00180087', vr: 'DS', value: '1.5' },
        { tag: '7FE00010', vr: 'OW', value: pixels },
      ]),
    )
  }
  return { studyUid, files }
}

interface Ellipse {
  /** centre and semi-axes in mm (x to the image right, y down), HU inside */
  x: number
  y: number
  a: number
  b: number
  hu: number
  /** the z range (mm) where it exists, and how it narrows towards the ends */
  zFrom?: number
  zTo?: number
  taper?: boolean
}

function paintSlice(
  ellipses: Ellipse[],
  size: number,
  spacing: number,
  z: number,
  noise: () => number,
  noiseHu: number,
): Int16Array {
  const hu = new Int16Array(size * size).fill(-1000)
  const half = (size * spacing) / 2
  for (const e of ellipses) {
    if (e.zFrom !== undefined && (z < e.zFrom || z > e.zTo!)) continue
    let scale = 1
    if (e.taper && e.zFrom !== undefined) {
      const t = (z - e.zFrom) / (e.zTo! - e.zFrom)
      scale = Math.sqrt(Math.max(0.05, Math.sin(Math.PI * Math.min(1, t * 0.9 + 0.1))))
    }
    const a = e.a * scale
    const b = e.b * scale
    const colFrom = Math.max(0, Math.floor((e.x - a + half) / spacing))
    const colTo = Math.min(size - 1, Math.ceil((e.x + a + half) / spacing))
    const rowFrom = Math.max(0, Math.floor((e.y - b + half) / spacing))
    const rowTo = Math.min(size - 1, Math.ceil((e.y + b + half) / spacing))
    for (let row = rowFrom; row <= rowTo; row++) {
      const y = row * spacing - half
      for (let col = colFrom; col <= colTo; col++) {
        const x = col * spacing - half
        if (((x - e.x) / a) ** 2 + ((y - e.y) / b) ** 2 <= 1) hu[row * size + col] = e.hu
      }
    }
  }
  for (let i = 0; i < hu.length; i++) {
    if (hu[i]! > -950) hu[i] = hu[i]! + Math.round((noise() - 0.5) * 2 * noiseHu)
  }
  return hu
}

/** Stored values of a CT: unsigned 12-bit, HU = stored − 1024. */
function toStored(hu: Int16Array): Uint16Array {
  const stored = new Uint16Array(hu.length)
  for (let i = 0; i < hu.length; i++) stored[i] = Math.min(4095, Math.max(0, hu[i]! + 1024))
  return stored
}

/**
 * 胸部 CT 平扫: 24 axial slices of 512² at 5 mm, with lungs, heart, aorta, spine and an 8 mm nodule
 * in the right upper lobe on two slices (what the demo report describes).
 */
export function demoChestCt(input: DemoStudyInput): DemoStudy {
  const size = 512
  const spacing = 0.68
  const slices = 24
  const chest: Ellipse[] = [
    { x: 0, y: 0, a: 165, b: 115, hu: -100 },
    { x: 0, y: 0, a: 155, b: 105, hu: 40 },
    { x: -75, y: -8, a: 58, b: 78, hu: -860, zFrom: 0, zTo: 120, taper: true },
    { x: 78, y: -8, a: 60, b: 80, hu: -860, zFrom: 0, zTo: 120, taper: true },
    { x: 22, y: 12, a: 58, b: 46, hu: 42, zFrom: 55, zTo: 120 },
    { x: -12, y: 38, a: 13, b: 13, hu: 48 },
    { x: 0, y: 78, a: 20, b: 18, hu: 1100 },
    { x: 0, y: 78, a: 16, b: 14, hu: 260 },
    { x: 0, y: 102, a: 8, b: 7, hu: 15 },
    { x: -88, y: -30, a: 4, b: 4, hu: 35, zFrom: 28, zTo: 36 },
  ]
  return ctStudy(input, chest, {
    size,
    spacing,
    slices,
    thickness: 5,
    description: '胸部 CT 平扫（演示）',
    series: '肺窗/纵隔窗 5mm（演示）',
    windows: [
      { center: -600, width: 1500 },
      { center: 40, width: 400 },
    ],
    syntax: EXPLICIT_LE,
    seed: 11,
  })
}

/** 头颅 CT 平扫, RLE-compressed: 12 slices of 256² at 8 mm (skull, brain, ventricles). */
export function demoHeadCtRle(input: DemoStudyInput): DemoStudy {
  const head: Ellipse[] = [
    { x: 0, y: 0, a: 72, b: 92, hu: 1200, zFrom: 0, zTo: 96, taper: true },
    { x: 0, y: 2, a: 66, b: 86, hu: 36, zFrom: 0, zTo: 96, taper: true },
    { x: -12, y: -5, a: 6, b: 24, hu: 6, zFrom: 30, zTo: 70 },
    { x: 12, y: -5, a: 6, b: 24, hu: 6, zFrom: 30, zTo: 70 },
  ]
  return ctStudy(input, head, {
    size: 256,
    spacing: 0.9,
    slices: 12,
    thickness: 8,
    description: '头颅 CT 平扫（演示）',
    series: '脑窗 8mm（演示，RLE 压缩）',
    windows: [
      { center: 40, width: 80 },
      { center: 500, width: 2000 },
    ],
    syntax: RLE_LOSSLESS,
    seed: 23,
  })
}

function ctStudy(
  input: DemoStudyInput,
  ellipses: Ellipse[],
  opts: {
    size: number
    spacing: number
    slices: number
    thickness: number
    description: string
    series: string
    windows: { center: number; width: number }[]
    syntax: string
    seed: number
  },
): DemoStudy {
  const studyUid = newUid()
  const seriesUid = newUid()
  const noise = random(opts.seed)
  const files: Buffer[] = []
  for (let s = 0; s < opts.slices; s++) {
    const z = s * opts.thickness + opts.thickness / 2
    const stored = toStored(paintSlice(ellipses, opts.size, opts.spacing, z, noise, 12))
    const elements: Element[] = [
      ...common(input, studyUid, seriesUid, 'CT', opts.description, opts.series),
      ...imageElements({
        sopClass: CT_IMAGE,
        sopUid: newUid(),
        index: s,
        rows: opts.size,
        columns: opts.size,
        spacing: opts.spacing,
        thickness: opts.thickness,
        z: -z,
        bits: 16,
        bitsStored: 12,
        signed: false,
        windows: opts.windows,
        rescale: { slope: 1, intercept: -1024 },
      }),
      { tag: '00180060', vr: 'DS', value: '120' },
    ]
    files.push(
      opts.syntax === RLE_LOSSLESS
        ? writePart10(elements, RLE_LOSSLESS, encapsulated([encodeRleFrame(stored)]))
        : writePart10([...elements, { tag: '7FE00010', vr: 'OW', value: stored }]),
    )
  }
  return { studyUid, files }
}

/** 胸部正位 DX, JPEG baseline: one 1024² 8-bit radiograph drawn from the chest phantom. */
export async function demoChestDxJpeg(input: DemoStudyInput): Promise<DemoStudy> {
  const size = 1024
  const studyUid = newUid()
  const seriesUid = newUid()
  const noise = random(31)
  // Attenuation along the beam, by region (bright = more attenuation, as on film).
  const regions = [
    { x: 0, y: 90, a: 360, b: 470, v: 110 },
    { x: -290, y: -300, a: 150, b: 110, v: 90 },
    { x: 290, y: -300, a: 150, b: 110, v: 90 },
    { x: -150, y: -20, a: 125, b: 270, v: -75 },
    { x: 150, y: -20, a: 130, b: 275, v: -75 },
    { x: 45, y: 150, a: 150, b: 120, v: 55 },
    { x: 0, y: 60, a: 24, b: 400, v: 60 },
    { x: -150, y: -300, a: 150, b: 14, v: 70 },
    { x: 150, y: -300, a: 150, b: 14, v: 70 },
  ]
  const pixels = new Uint8Array(size * size)
  for (let row = 0; row < size; row++) {
    const y = row - size / 2
    for (let col = 0; col < size; col++) {
      const x = col - size / 2
      let value = 20
      for (const r of regions) {
        if (((x - r.x) / r.a) ** 2 + ((y - r.y) / r.b) ** 2 <= 1) value += r.v
      }
      pixels[row * size + col] = Math.max(0, Math.min(255, Math.round(value + noise() * 8)))
    }
  }
  const jpeg = await encodeJpeg(pixels, size, size, 1, 90)
  const elements: Element[] = [
    ...common(
      input,
      studyUid,
      seriesUid,
      'DX',
      '胸部正位 DR（演示）',
      '胸部后前位（演示，JPEG 压缩）',
    ),
    ...imageElements({
      sopClass: DX_IMAGE,
      sopUid: newUid(),
      index: 0,
      rows: size,
      columns: size,
      spacing: 0.35,
      thickness: 0,
      z: 0,
      bits: 8,
      bitsStored: 8,
      signed: false,
      windows: [{ center: 128, width: 256 }],
    }),
    { tag: '00282110', vr: 'CS', value: '01' },
  ]
  return { studyUid, files: [writePart10(elements, JPEG_BASELINE, encapsulated([jpeg]))] }
}
