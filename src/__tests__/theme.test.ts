import { readFileSync, readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { THEME } from '../theme'

const SRC = join(__dirname, '..')
const THEME_FILES = ['theme.ts', 'styles/_theme.scss']

/** `$name: value;` declarations of a stylesheet, by name. */
function scssVariables(scss: string): Map<string, string> {
  const variables = new Map<string, string>()
  for (const [, name, value] of scss.matchAll(/^\$([\w-]+):\s*([^;]+);/gm))
    variables.set(name!, value!.trim())
  return variables
}

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)

/** Every source file of the app (stylesheets, code, the HTML template), tests left out. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(scss|css|tsx?|jsx?|html)$/.test(file))
    .filter((file) => !file.split(/[\\/]/).includes('__tests__'))
    .map((file) => relative(SRC, join(dir, file)).split('\\').join('/'))
}

/** A theme colour written out: as hex in any case (with an alpha too), or as its rgb()/rgba(). */
function colourPattern(hex: string): RegExp {
  const [r, g, b] = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16))
  return new RegExp(`${hex}|rgba?\\(\\s*${r}\\s*,\\s*${g}\\s*,\\s*${b}\\s*[,)]`, 'i')
}

describe('the theme', () => {
  it('has one stylesheet mirror: _theme.scss declares exactly THEME, value for value', () => {
    const scss = scssVariables(readFileSync(join(SRC, 'styles/_theme.scss'), 'utf8'))
    const expected = Object.entries(THEME).map(([name, value]) => [
      kebab(name),
      value.toLowerCase(),
    ])
    expect([...scss].map(([name, value]) => [name, value.toLowerCase()]).sort()).toEqual(
      expected.sort(),
    )
  })

  it('is written nowhere else: no file outside the theme spells out a brand colour', () => {
    // Spec greys (tab text, page background) are everyday greys too; the brand colour and its
    // shades are ours alone, so a copy of one means a colour that would not change with the theme.
    const { tabText: _grey, pageBackground: _background, ...brand } = THEME
    const patterns = Object.values(brand).map(colourPattern)
    const copies = sourceFiles()
      .filter((file) => !THEME_FILES.includes(file))
      .flatMap((file) => {
        const text = readFileSync(join(SRC, file), 'utf8')
        return patterns.filter((pattern) => pattern.test(text)).map(() => file)
      })
    expect(copies).toEqual([])
  })

  it('finds a copy in any spelling (the check above can fail)', () => {
    const primary = colourPattern(THEME.primary)
    for (const text of [
      'color: #0db4aa;',
      'color: #0DB4AA;',
      "color='#0Db4aA'",
      'box-shadow: 0 0 4px rgba(13, 180, 170, 0.3);',
      'color: rgb(13,180,170);',
      'color: #0db4aa80;',
    ])
      expect(primary.test(text)).toBe(true)
    expect(primary.test('color: #0db4ab;')).toBe(false)
    expect(primary.test('theme.$primary')).toBe(false)
  })
})
