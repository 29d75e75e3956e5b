import { existsSync } from 'node:fs'
import { join } from 'node:path'
import {
  ROUTES,
  findRoute,
  mainPackagePages,
  pageConfig,
  routeByName,
  subPackages,
} from '../routes'
import type { RouteName } from '../routes'

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
  it('leaves the operators’ pages out of the mini-program: its app.json never lists them', () => {
    const weapp = [
      ...mainPackagePages('weapp'),
      ...subPackages('weapp').flatMap((p) => p.pages.map((page) => `${p.root}/${page}`)),
    ]
    const operatorPages = ROUTES.filter((r) => r.h5Only).map((r) => r.path)
    expect(operatorPages).toEqual([
      'pages/operator/index',
      'pages/operator/article',
      'pages/operator/expertApplication',
    ])
    for (const path of operatorPages) expect(weapp).not.toContain(path)
    expect(subPackages('weapp').some((p) => p.root === 'pages/operator')).toBe(false)
    expect(subPackages('h5').some((p) => p.root === 'pages/operator')).toBe(true)
    expect(weapp.length).toBe(ROUTES.length - operatorPages.length)
  })
  it('keeps every name unique and finds each route by it', () => {
    expect(new Set(ROUTES.map((r) => r.name)).size).toBe(ROUTES.length)
    for (const route of ROUTES) expect(routeByName(route.name as RouteName)).toBe(route)
  })
  it('has a page and a page config at every path, the config built from its own route', () => {
    ;(globalThis as { definePageConfig?: unknown }).definePageConfig = (config: unknown) => config
    for (const route of ROUTES) {
      const file = join(__dirname, '..', route.path)
      expect(existsSync(`${file}.tsx`)).toBe(true)
      const config = jest.requireActual<{ default: unknown }>(`${file}.config.ts`).default
      expect(config).toEqual(pageConfig(route.name as RouteName))
      expect(config).toMatchObject({ navigationBarTitleText: route.title })
    }
  })
})
