import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LAYERS } from '../layers'

describe('z-index layers', () => {
  it('stack toast over popup over mask over the fixed bars', () => {
    expect(LAYERS.toast).toBeGreaterThan(LAYERS.popup)
    expect(LAYERS.popup).toBeGreaterThan(LAYERS.mask)
    expect(LAYERS.mask).toBeGreaterThan(LAYERS.navbar)
    expect(LAYERS.navbar).toBeGreaterThan(LAYERS.sticky)
  })

  it('are the same in the stylesheet mirror', () => {
    const scss = readFileSync(join(__dirname, '../../styles/_layers.scss'), 'utf8')
    for (const [name, value] of Object.entries(LAYERS)) {
      const kebab = name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
      expect(scss).toContain(`$${kebab}: ${value};`)
    }
  })
})
