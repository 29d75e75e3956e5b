import { barsOf, canEncode, code128Modules, QUIET_ZONE_MODULES } from '../code128'

// Code 128 patterns (ISO/IEC 15417 table 1): start B, start C, stop.
const START_B = '11010010000'
const START_C = '11010011100'
const STOP = '1100011101011'

function symbols(modules: string): string[] {
  const body = modules.slice(QUIET_ZONE_MODULES, modules.length - QUIET_ZONE_MODULES - STOP.length)
  return body.match(/.{11}/g) ?? []
}

describe('Code 128', () => {
  it('encodes letters in set B with the check symbol and stop, inside quiet zones', () => {
    const modules = code128Modules('AB')!
    expect(modules.startsWith('0'.repeat(QUIET_ZONE_MODULES) + START_B)).toBe(true)
    expect(modules.endsWith(STOP + '0'.repeat(QUIET_ZONE_MODULES))).toBe(true)
    // Start B, A (33), B (34), check (104 + 1·33 + 2·34) mod 103 = 102.
    const [start, a, b, check] = symbols(modules)
    expect(start).toBe(START_B)
    expect(a).toBe('10100011000') // value 33: A
    expect(b).toBe('10001011000') // value 34: B
    expect(check).toBe('11110101110') // value 102
  })

  it('packs digits two to a symbol in set C', () => {
    const modules = code128Modules('20300001')!
    const parts = symbols(modules)
    expect(parts[0]).toBe(START_C)
    // Start, 4 digit pairs, check.
    expect(parts).toHaveLength(6)
  })

  it('every symbol has three bars and the stop four', () => {
    const modules = code128Modules('CT2030000001')!
    const count = symbols(modules).length
    expect(barsOf(modules)).toHaveLength(count * 3 + 4)
    for (const [start, width] of barsOf(modules)) {
      expect(modules.slice(start, start + width)).toBe('1'.repeat(width))
      expect(width).toBeLessThanOrEqual(4)
    }
  })

  it('refuses what Code 128 cannot carry', () => {
    expect(code128Modules('')).toBeNull()
    expect(code128Modules('检查号')).toBeNull()
    expect(code128Modules('a\nb')).toBeNull()
    expect(canEncode('X'.repeat(81))).toBe(false)
    expect(canEncode('CT-2030/01')).toBe(true)
  })
})
