/**
 * Each H5 page chunk carries only the Taro components it uses.
 *
 * On H5, `@tarojs/components` is Taro's React wrapper library (lib/react): one module that wraps every
 * component (`View`, `Picker`, `Textarea`, ...) and pulls in each used one's custom-element code.
 * Taro splits only the app's initial chunks (splitChunks `chunks: 'initial'`), so every page chunk
 * holds its own copy of that module; but webpack decides which exports a module keeps once for the
 * whole app, so every copy kept the union of what any page uses. The home, which shows `View` and
 * `Text` only, shipped the picker, textarea, input, slider, scroll-view and canvas elements: about
 * 47 KB of 73 KB, 11 KB gzip of what the phone downloads before the first screen.
 *
 * Here every file that imports `@tarojs/components` gets its own instance of the wrapper module (the
 * same file with a query naming the importer), so each keeps exactly the wrappers that file uses; the
 * custom-element code behind them stays one shared module each. A wrapper is a few dozen bytes and
 * holds no state (defining a custom element twice is a no-op), so a second instance costs nothing but
 * those bytes. The weapp build is untouched: this is an H5 webpack plugin.
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import type { Compiler } from 'webpack'

const PLUGIN = 'yingxiang-components-per-file'

/** The import the app writes; Taro's H5 alias points it at lib/react/index.js. */
export const COMPONENTS_REQUEST = '@tarojs/components'

/**
 * The wrapper module behind `@tarojs/components` on H5, or undefined when the library's layout is not
 * the one this plugin knows (index.js re-exporting components.js and nothing else): then the build
 * keeps Taro's own resolution.
 */
export function wrapperModule(indexFile?: string): string | undefined {
  let index = indexFile
  try {
    index ??= require.resolve('@tarojs/components/lib/react')
  } catch {
    return undefined
  }
  const source = readFileSync(index, 'utf8')
  const statements = source
    .replace(/\/\/[^\n]*|\/\*[\s\S]*?\*\//g, '')
    .split(';')
    .map((s) => s.trim())
    .filter(Boolean)
  const reexportOnly =
    statements.length === 1 &&
    /^export\s*\{[^}]*\}\s*from\s*'\.\/components\.js'$/.test(statements[0]!)
  return reexportOnly ? path.join(path.dirname(index), 'components.js') : undefined
}

/** The request that gives `issuer` its own instance of `wrapper`. */
export function perFileRequest(wrapper: string, issuer: string, root: string): string {
  const name = path.relative(root, issuer).split(path.sep).join('/')
  const id = createHash('sha1').update(name).digest('hex').slice(0, 10)
  return `${wrapper}?importer=${id}`
}

export class ComponentsPerFilePlugin {
  constructor(private readonly wrapper: string | undefined = wrapperModule()) {}

  apply(compiler: Compiler): void {
    const wrapper = this.wrapper
    if (!wrapper) {
      console.warn(
        `⚠️  ${COMPONENTS_REQUEST} 的 H5 组件库结构已变，各页将带上全部用到的组件（components per file: layout not recognised）`,
      )
      return
    }
    compiler.hooks.normalModuleFactory.tap(PLUGIN, (factory) => {
      factory.hooks.beforeResolve.tap(PLUGIN, (data) => {
        const issuer = data.contextInfo.issuer
        if (data.request !== COMPONENTS_REQUEST || !issuer) return
        data.request = perFileRequest(wrapper, issuer, compiler.context)
      })
    })
  }
}
