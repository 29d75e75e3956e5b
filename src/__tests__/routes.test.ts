import { ROUTES, findRoute, mainPackagePages, subPackages } from '../routes'

describe('route table', () => {
  it('resolves / to the home tab', () => {
    expect(findRoute('/')?.path).toBe('pages/main/main')
  })
  it('keeps every path unique', () => {
    expect(new Set(ROUTES.map((r) => r.path)).size).toBe(ROUTES.length)
  })
  it('puts every route in exactly one package', () => {
    const sub = subPackages().flatMap((p) => p.pages.map((page) => `${p.root}/${page}`))
    expect([...mainPackagePages(), ...sub].sort()).toEqual(ROUTES.map((r) => r.path).sort())
  })
})
