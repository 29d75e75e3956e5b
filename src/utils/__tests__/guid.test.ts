import { guid } from '../guid'

const ALNUM = /^[0-9A-Za-z]+$/

describe('guid', () => {
  it('defaults to 32 characters starting with u', () => {
    const id = guid()
    expect(id).toHaveLength(32)
    expect(id[0]).toBe('u')
    expect(id).toMatch(ALNUM)
  })

  it.each([1, 2, 8, 16, 32, 64, 200])('has length %p', (len) => {
    expect(guid(len)).toHaveLength(len)
    expect(guid(len, false)).toHaveLength(len)
  })

  it.each<[number, RegExp]>([
    [2, /^[01]+$/],
    [10, /^[0-9]+$/],
    [16, /^[0-9A-F]+$/],
    [36, /^[0-9A-Z]+$/],
    [62, ALNUM],
  ])('radix %p draws only from its characters', (radix, charset) => {
    for (let i = 0; i < 50; i += 1) expect(guid(40, false, radix)).toMatch(charset)
  })

  it('uses every character of the radix', () => {
    const seen = new Set(Array.from({ length: 200 }, () => guid(64, false)).join(''))
    expect(seen.size).toBe(62)
  })

  it('does not repeat over many calls', () => {
    const ids = new Set(Array.from({ length: 10_000 }, () => guid()))
    expect(ids.size).toBe(10_000)
  })

  it('gives a version-4 UUID layout for len 0', () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/
    for (let i = 0; i < 100; i += 1) expect(guid(0, false)).toMatch(uuid)
    const withU = guid(0)
    expect(withU).toHaveLength(36)
    expect(withU).toMatch(/^u[0-9a-f]{7}-/)
  })

  it.each([-1, 1.5, NaN])('rejects length %p', (len) => {
    expect(() => guid(len)).toThrow(RangeError)
  })

  it.each([0, 1, 63, 2.5])('rejects radix %p', (radix) => {
    expect(() => guid(8, false, radix)).toThrow(RangeError)
  })

  describe('random source', () => {
    const realCrypto = Object.getOwnPropertyDescriptor(globalThis, 'crypto')
    afterEach(() => {
      if (realCrypto) Object.defineProperty(globalThis, 'crypto', realCrypto)
      jest.restoreAllMocks()
    })

    it('uses crypto.getRandomValues when present', () => {
      const getRandomValues = jest.fn((array: Uint32Array) => {
        array.fill(5)
        return array
      })
      Object.defineProperty(globalThis, 'crypto', {
        value: { getRandomValues },
        configurable: true,
      })
      const random = jest.spyOn(Math, 'random')
      expect(guid(4, false)).toBe('5555')
      expect(getRandomValues).toHaveBeenCalled()
      expect(random).not.toHaveBeenCalled()
    })

    it('discards values that would bias the result', () => {
      // 2^32 - 1 lies in the incomplete last block for radix 62 and must be skipped.
      let call = 0
      const getRandomValues = jest.fn((array: Uint32Array) => {
        array.fill(call === 0 ? 0xffffffff : 61)
        call += 1
        return array
      })
      Object.defineProperty(globalThis, 'crypto', {
        value: { getRandomValues },
        configurable: true,
      })
      expect(guid(3, false)).toBe('zzz')
      expect(getRandomValues).toHaveBeenCalledTimes(2)
    })

    it('falls back to Math.random without crypto (weapp)', () => {
      Object.defineProperty(globalThis, 'crypto', { value: undefined, configurable: true })
      const random = jest.spyOn(Math, 'random').mockReturnValue(0.999999)
      expect(guid(3, false)).toBe('zzz')
      expect(guid(3, false, 10)).toBe('999')
      expect(random).toHaveBeenCalled()
    })
  })
})
