/**
 * Part 10 instances for tests, written by the app's own writer (src/dicom/write.ts) with text taken
 * as raw bytes: a string's characters are its bytes (latin1), so a test controls exactly which bytes
 * a GB18030 or UTF-8 name is made of (Node's TextEncoder only speaks UTF-8, and dcmjs re-encodes
 * strings its own way).
 */
import { type Element, type ElementValue, encapsulated, writePart10 } from '../../src/dicom/write'

export type Value = ElementValue
export type Attr = Element

export function writeInstance(
  attrs: Attr[],
  transferSyntax = '1.2.840.10008.1.2.1',
  /** Bytes appended after the elements: encapsulated pixel data, which sorts last anyway. */
  tail?: Buffer,
): Buffer {
  const text = (tag: string) => attrs.find((a) => a.tag === tag)?.value as string | undefined
  return writePart10(attrs, transferSyntax, tail, {
    text: 'latin1',
    // Instances made without these still get a well-formed file meta.
    meta: {
      sopClassUid: text('00080016') ?? '1.2.840.10008.5.1.4.1.1.7',
      sopInstanceUid: text('00080018') ?? '1.2.826.0.1.3680043.10.1.9',
    },
  })
}

/** A minimal secondary-capture instance with a small 8-bit image, plus any extra attributes. */
export function testInstance(extra: Attr[] = [], transferSyntax?: string): Buffer {
  const base: Attr[] = [
    { tag: '00080016', vr: 'UI', value: '1.2.840.10008.5.1.4.1.1.7' },
    { tag: '00080018', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.3' },
    { tag: '0020000D', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.1' },
    { tag: '0020000E', vr: 'UI', value: '1.2.826.0.1.3680043.10.1.2' },
    { tag: '00280002', vr: 'US', value: [1] },
    { tag: '00280004', vr: 'CS', value: 'MONOCHROME2' },
    { tag: '00280010', vr: 'US', value: [2] },
    { tag: '00280011', vr: 'US', value: [2] },
    { tag: '00280100', vr: 'US', value: [8] },
    { tag: '00280101', vr: 'US', value: [8] },
    { tag: '00280102', vr: 'US', value: [7] },
    { tag: '00280103', vr: 'US', value: [0] },
    { tag: '7FE00010', vr: 'OB', value: new Uint8Array([0, 100, 200, 255]) },
  ]
  const tags = new Set(extra.map((a) => a.tag))
  return writeInstance([...base.filter((a) => !tags.has(a.tag)), ...extra], transferSyntax)
}

/**
 * Encapsulated pixel data (PS3.5 A.4) as a complete element: OB of undefined length, an empty basic
 * offset table item, one item per frame, then the sequence delimiter.
 */
export const encapsulatedPixelData = encapsulated
