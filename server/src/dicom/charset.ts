import { TextDecoder } from 'node:util'

/**
 * SpecificCharacterSet (0008,0005) → a TextDecoder label. Only the single-byte and the
 * variable-length Chinese encodings that hospitals here actually send; ISO 2022 code extensions
 * (escape sequences) are not interpreted, their bytes fall back to Latin-1.
 */
const LABELS: Record<string, string> = {
  '': 'latin1',
  ISO_IR_6: 'latin1',
  ISO_IR_100: 'latin1',
  ISO_IR_192: 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gbk',
  ISO_2022_IR_6: 'latin1',
  ISO_2022_IR_100: 'latin1',
}

/** Pick the decoder label; with several values the last one names the extension set actually used. */
export function charsetLabel(specificCharacterSet: string | undefined): string {
  const values = (specificCharacterSet ?? '')
    .split('\\')
    .map((value) => value.trim().replace(/[\s-]/g, '_').toUpperCase())
    .filter(Boolean)
  for (const value of values.reverse()) {
    const label = LABELS[value]
    if (label && label !== 'latin1') return label
  }
  return 'latin1'
}

const decoders = new Map<string, TextDecoder>()

export function decodeText(bytes: Uint8Array, label: string): string {
  let decoder = decoders.get(label)
  if (!decoder) {
    decoder = new TextDecoder(label)
    decoders.set(label, decoder)
  }
  return decoder.decode(bytes)
}

/** VRs whose bytes are in the instance's character set; all other string VRs are plain ASCII. */
export const TEXT_VRS = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'PN', 'UC'])
