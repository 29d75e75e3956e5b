import { parseInstanceMetadata, rendererKey, RendererPool } from '../index'
import { syntheticJson } from './support'

/*
 * The viewer keeps renderers per render parameters, not per instance: a 16-bit stack's slices
 * share one renderer (and its lookup tables), so memory does not grow with every slice shown.
 */

const slice = (n: number, o: Parameters<typeof syntheticJson>[0] = {}) =>
  parseInstanceMetadata(
    syntheticJson({
      bitsStored: 16,
      pixelRepresentation: 1,
      slope: 1,
      intercept: -1024,
      sop: `1.2.${n}`,
      instanceNumber: n,
      ...o,
    }),
  )

describe('RendererPool', () => {
  it('gives the slices of one stack the same renderer: one kept over a 500-slice CT', () => {
    const pool = new RendererPool()
    const first = pool.get(slice(1))
    for (let n = 2; n <= 500; n++) expect(pool.get(slice(n))).toBe(first)
    expect(pool.size).toBe(1)
  })

  it('keeps instances apart when their pixels map differently', () => {
    const pool = new RendererPool()
    const base = pool.get(slice(1))
    expect(pool.get(slice(2, { intercept: 0 }))).not.toBe(base)
    expect(pool.get(slice(3, { slope: 2 }))).not.toBe(base)
    expect(pool.get(slice(4, { rows: 8 }))).not.toBe(base)
    expect(pool.get(slice(5, { pixelRepresentation: 0 }))).not.toBe(base)
    expect(pool.get(slice(6, { bitsStored: 12 }))).not.toBe(base)
    expect(pool.get(slice(7, { photometric: 'MONOCHROME1' }))).not.toBe(base)
    expect(pool.get(slice(8))).toBe(base)
  })

  it('stays bounded with many different instances, dropping the least recently used', () => {
    const pool = new RendererPool()
    const kept = pool.get(slice(0, { intercept: 0 }))
    for (let n = 1; n <= 50; n++) {
      pool.get(slice(n, { intercept: n }))
      // Used again on every step: never the oldest.
      expect(pool.get(slice(0, { intercept: 0 }))).toBe(kept)
    }
    expect(pool.size).toBeLessThanOrEqual(8)
  })

  it('gives each palette instance its own renderer (its tables come with it)', () => {
    const palette = (n: number) => ({ ...slice(n), photometric: 'PALETTE COLOR' as const })
    expect(rendererKey(palette(1))).not.toBe(rendererKey(palette(2)))
    expect(rendererKey(slice(1))).toBe(rendererKey(slice(2)))
  })
})
