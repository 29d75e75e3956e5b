// test-server: no database
/**
 * config/components-per-file.ts: a lazily loaded page carries only the Taro components its own files
 * use. Real webpack, Taro's real H5 component library, the alias Taro's H5 build sets; two "pages"
 * loaded with import() as Taro's router loads them (async chunks, which Taro does not split).
 */
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import webpack from 'webpack'
import {
  ComponentsPerFilePlugin,
  perFileRequest,
  wrapperModule,
} from '../../../config/components-per-file'

const ROOT = path.resolve(__dirname, '..', '..', '..')
const dirs: string[] = []
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** The source files each page chunk of entry → import('./home'), import('./form') holds. */
async function build(withPlugin: boolean): Promise<{ home: string[]; form: string[] }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'components-per-file-'))
  dirs.push(dir)
  writeFileSync(
    path.join(dir, 'entry.js'),
    `import(/* webpackChunkName: "home" */ './home'); import(/* webpackChunkName: "form" */ './form')`,
  )
  writeFileSync(
    path.join(dir, 'home.js'),
    `import { View, Text } from '@tarojs/components'\nexport default [View, Text]`,
  )
  writeFileSync(
    path.join(dir, 'form.js'),
    `import { View, Picker, Textarea } from '@tarojs/components'\nexport default [View, Picker, Textarea]`,
  )
  const compiler = webpack({
    mode: 'production',
    context: dir,
    entry: './entry.js',
    output: { path: path.join(dir, 'out'), filename: '[name].js', chunkFilename: '[name].js' },
    // Taro's H5 build splits initial chunks only: each page chunk has its own copy of what it uses.
    optimization: { minimize: false, splitChunks: false },
    resolve: {
      modules: [path.join(ROOT, 'node_modules')],
      alias: { '@tarojs/components$': require.resolve('@tarojs/components/lib/react') },
    },
    plugins: withPlugin ? [new ComponentsPerFilePlugin()] : [],
    infrastructureLogging: { level: 'error' },
  })
  const stats = await new Promise<webpack.Stats>((resolve, reject) =>
    compiler.run((error, result) => (error || !result ? reject(error) : resolve(result))),
  )
  await new Promise((resolve) => compiler.close(resolve))
  assert.equal(stats.hasErrors(), false, stats.toString('errors-only'))
  const { chunks = [] } = stats.toJson({ chunks: true, chunkModules: true, nestedModules: true })
  const files = (name: string) => {
    const chunk = chunks.find((c) => c.names?.includes(name))
    assert.ok(chunk, `chunk ${name}`)
    // A concatenated module lists its parts; each part's name is its path.
    const names = (m: webpack.StatsModule): string[] =>
      m.modules ? m.modules.flatMap(names) : [m.name ?? '']
    return (chunk.modules ?? []).flatMap(names).map((name) => path.basename(name.split('?')[0]!))
  }
  return { home: files('home'), form: files('form') }
}

describe('Taro components per file (H5)', () => {
  test("the library's layout is the one the plugin knows (else it would leave the build as it is)", () => {
    const wrapper = wrapperModule()
    assert.ok(wrapper?.endsWith(path.join('lib', 'react', 'components.js')), String(wrapper))
    if (!wrapper) return
    const request = perFileRequest(wrapper, path.join(ROOT, 'src/pages/main/main.tsx'), ROOT)
    assert.match(request, /components\.js\?importer=[0-9a-f]{10}$/)
    assert.notEqual(
      request,
      perFileRequest(wrapper, path.join(ROOT, 'src/pages/user/user.tsx'), ROOT),
    )
  })

  test('a page chunk holds only its own components; without the plugin it held every page’s', async () => {
    const before = await build(false)
    // The union the plugin exists to avoid: the home carried the form's picker and textarea.
    assert.ok(before.home.includes('taro-picker-core.js'), before.home.join(' '))
    assert.ok(before.home.includes('taro-textarea-core.js'))

    const { home, form } = await build(true)
    assert.ok(home.includes('taro-view-core.js') && home.includes('taro-text-core.js'))
    assert.ok(!home.includes('taro-picker-core.js'), home.join(' '))
    assert.ok(!home.includes('taro-textarea-core.js'))
    assert.ok(form.includes('taro-picker-core.js') && form.includes('taro-textarea-core.js'))
    assert.ok(!form.includes('taro-text-core.js'), form.join(' '))
  })
})
