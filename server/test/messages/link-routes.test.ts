import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { ROUTES } from '../../../src/routes'

/**
 * Messages and other answers name an app page by its route name (`{ route: 'familyCard' }`), and the
 * app opens it by looking the name up in src/routes.ts. Renaming a route there without the server
 * left 查看 on the message silently missing; every name the server writes must be a route.
 */
test('every page the server links to by name is a route of the app', () => {
  const dir = path.resolve(__dirname, '../../src')
  const names = new Map<string, string>()
  for (const file of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue
    const text = readFileSync(path.join(dir, file), 'utf8')
    for (const match of text.matchAll(/\broute: '([A-Za-z0-9]+)'/g)) names.set(match[1]!, file)
  }
  assert.ok(names.size >= 10, `found only ${names.size} linked routes`)
  const known = new Set(ROUTES.map((route) => route.name))
  const missing = [...names].filter(([name]) => !known.has(name))
  assert.deepEqual(missing, [], 'route names the server links to that the app does not have')
})
