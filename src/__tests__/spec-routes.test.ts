import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { ROUTES, findRoute } from '../routes'
import { THEME } from '../theme'

/**
 * routes.ts against SPEC.md section 2 itself: the route table is parsed from the markdown, so a
 * route added to, or dropped from, either side fails here. CI runs on a clone of this repository
 * alone, so the spec is kept verbatim in docs/SPEC.md; where the shared original is next to the
 * repository (a developer's machine), the copy must still equal it.
 */

const ROOT = join(__dirname, '..', '..')
const SPEC_COPY = join(ROOT, 'docs', 'SPEC.md')
const SPEC_SHARED = join(ROOT, '..', 'shared', 'SPEC.md')

function section(markdown: string, heading: string): string {
  const start = markdown.indexOf(`\n## ${heading}`)
  if (start < 0) throw new Error(`no section "${heading}" in SPEC.md`)
  const end = markdown.indexOf('\n## ', start + 1)
  return markdown.slice(start, end < 0 ? undefined : end)
}

interface SpecRow {
  paths: string[]
  meaning: string
}

/**
 * The table's rows. A cell lists paths separated by commas; a bare name after a full path is a
 * sibling in the same folder (`/pages/report/report, reportNew`), and `/ (alias /pages/main/main)`
 * names both.
 */
function parseRouteTable(markdown: string): SpecRow[] {
  const rows: SpecRow[] = []
  for (const line of section(markdown, '2. Screens and routes').split('\n')) {
    const cells = line.split('|').map((cell) => cell.trim())
    if (cells.length < 4 || cells[1] === 'Route' || /^-+$/.test(cells[1])) continue
    const paths: string[] = []
    let folder = ''
    for (const raw of cells[1].split(',').map((part) => part.trim())) {
      const alias = /^(\S+) \(alias (\S+)\)$/.exec(raw)
      const names = alias ? [alias[1], alias[2]] : [raw]
      for (const name of names) {
        const path = name.startsWith('/') ? name : `${folder}/${name}`
        folder = path.slice(0, path.lastIndexOf('/'))
        paths.push(path)
      }
    }
    rows.push({ paths, meaning: cells[2] })
  }
  return rows
}

const spec = readFileSync(SPEC_COPY, 'utf8')
const rows = parseRouteTable(spec)

describe('routes.ts against SPEC.md section 2', () => {
  it('keeps docs/SPEC.md a verbatim copy of the shared spec (when it is there)', () => {
    if (!existsSync(SPEC_SHARED)) return
    expect(spec).toBe(readFileSync(SPEC_SHARED, 'utf8'))
  })

  it('reads the whole table', () => {
    expect(rows.length).toBeGreaterThanOrEqual(50)
    expect(rows[0]).toEqual({
      paths: ['/', '/pages/main/main'],
      meaning: 'Home, tab 0, titled with the product name',
    })
    expect(rows.find((row) => row.paths.includes('/pages/report/reportNew'))?.paths).toEqual([
      '/pages/report/report',
      '/pages/report/reportNew',
      '/pages/report/reportIn',
    ])
  })

  it('has exactly the spec’s routes, each at its exact path', () => {
    const specPaths = rows
      .flatMap((row) => row.paths)
      .filter((path) => path !== '/')
      .map((path) => path.slice(1))
    expect(new Set(specPaths).size).toBe(specPaths.length)
    const ours = ROUTES.filter((route) => route.notInSpec === undefined)
    expect([...specPaths].sort()).toEqual(ours.map((route) => route.path).sort())
    // A page outside the spec says why, and really is outside it.
    for (const route of ROUTES.filter((r) => r.notInSpec !== undefined)) {
      expect(specPaths).not.toContain(route.path)
    }
    expect(findRoute('/')?.path).toBe('pages/main/main')
  })

  it('puts the tabs where the spec says', () => {
    for (const row of rows) {
      const tab = /\btab (\d)\b/.exec(row.meaning)
      const route = findRoute(row.paths[row.paths.length - 1])
      expect([row.paths.join(', '), route?.tab]).toEqual([
        row.paths.join(', '),
        tab ? Number(tab[1]) : undefined,
      ])
    }
  })

  it('draws no navigation bar where the spec says so', () => {
    const custom = rows
      .filter((row) => /no navigation bar|custom navigation/i.test(row.meaning))
      .flatMap((row) => row.paths.map((path) => path.slice(1)))
    expect(custom.sort()).toEqual(
      ROUTES.filter((route) => route.customNavigation)
        .map((route) => route.path)
        .sort(),
    )
  })

  it('uses the spec’s colours', () => {
    const colours =
      /Selected tab colour and navigation bar colour are (\w+), tab text is (\w+), and page background is (\w+)/.exec(
        section(spec, '2. Screens and routes'),
      )
    expect(colours).not.toBeNull()
    const [, primary, tabText, background] = colours ?? []
    const long = (hex: string) => (hex.length === 3 ? [...hex].map((c) => c + c).join('') : hex)
    expect(THEME.primary.toLowerCase()).toBe(`#${long(primary).toLowerCase()}`)
    expect(THEME.tabText.toLowerCase()).toBe(`#${long(tabText).toLowerCase()}`)
    expect(THEME.pageBackground.toLowerCase()).toBe(`#${long(background).toLowerCase()}`)
  })
})
