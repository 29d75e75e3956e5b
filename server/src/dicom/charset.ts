import { TextDecoder } from 'node:util'

/**
 * SpecificCharacterSet (0008,0005) → a TextDecoder label: the single-byte sets and the Chinese
 * encodings hospitals here send. `ISO 2022 IR 58` (GB2312 through ISO 2022 escapes) is read by
 * dropping the escape sequences and decoding with GB18030: its G1 bytes are GB2312 in EUC form (high
 * bit set), a subset of GB18030, and everything else is ASCII. Other code extensions (Japanese,
 * Korean, ...) are not interpreted: their bytes fall back to Latin-1.
 */
const ISO2022 = '+iso2022'

const LABELS: Record<string, string> = {
  '': 'latin1',
  ISO_IR_6: 'latin1',
  ISO_IR_100: 'latin1',
  ISO_IR_192: 'utf-8',
  GB18030: 'gb18030',
  GBK: 'gbk',
  ISO_2022_IR_6: 'latin1',
  ISO_2022_IR_100: 'latin1',
  ISO_2022_IR_58: `gb18030${ISO2022}`,
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

/** ESC followed by intermediate bytes (0x20–0x2F) and one final byte (ISO 2022 / ECMA-35). */
function withoutEscapes(bytes: Uint8Array): Uint8Array {
  if (!bytes.includes(0x1b)) return bytes
  const out: number[] = []
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] !== 0x1b) {
      out.push(bytes[i])
      continue
    }
    i++
    while (i < bytes.length && bytes[i] >= 0x20 && bytes[i] <= 0x2f) i++
  }
  return Uint8Array.from(out)
}

export function decodeText(bytes: Uint8Array, label: string): string {
  const iso2022 = label.endsWith(ISO2022)
  const encoding = iso2022 ? label.slice(0, -ISO2022.length) : label
  let decoder = decoders.get(encoding)
  if (!decoder) {
    decoder = new TextDecoder(encoding)
    decoders.set(encoding, decoder)
  }
  return decoder.decode(iso2022 ? withoutEscapes(bytes) : bytes)
}

/** VRs whose bytes are in the instance's character set; all other string VRs are plain ASCII. */
export const TEXT_VRS = new Set(['SH', 'LO', 'ST', 'LT', 'UT', 'PN', 'UC'])
