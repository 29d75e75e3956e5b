import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { ROUTES } from '../routes'

/**
 * The server names an app page by its route name in what it writes (a message's 查看:
 * `{ route: 'familyCard' }`), and the app opens it by looking the name up here. A route renamed here
 * and not on the server left 查看 silently missing, so every name the server's code writes must be a
 * route. (Read as text: the server never imports the app.)
 */
describe('pages the server links to', () => {
  it('are routes of the app, by name', () => {
    const dir = path.resolve(__dirname, '../../server/src')
    const names = new Map<string, string>()
    for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts')) continue
      const text = readFileSync(path.join(dir, file), 'utf8')
      for (const match of text.matchAll(/\broute: '([A-Za-z0-9]+)'/g)) names.set(match[1]!, file)
    }
    expect(names.size).toBeGreaterThanOrEqual(10)
    const known = new Set(ROUTES.map((route) => route.name))
    expect([...names].filter(([name]) => !known.has(name))).toEqual([])
  })
})
