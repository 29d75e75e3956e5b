// test-server: no database
/**
 * config/page-chunks.ts: H5 pages after the home share the code they have in common. Real webpack
 * with Taro's H5 splitChunks options; three "pages" loaded with import() as Taro's router loads them
 * (async chunks), each using a library big enough to share and a stylesheet of its own.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, describe, test } from 'node:test'
import MiniCssExtractPlugin from 'mini-css-extract-plugin'
import webpack from 'webpack'
import { SHARED_MIN_BYTES, SharedPageChunksPlugin } from '../../../config/page-chunks'

const dirs: string[] = []
after(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })))

/** Taro's production H5 optimization.splitChunks (webpack5-runner H5Combination), groups simplified. */
const TARO_SPLIT_CHUNKS = {
  chunks: 'initial' as const,
  minSize: 0,
  cacheGroups: {
    default: false as const,
    defaultVendors: false as const,
    vendors: { name: false as const, minChunks: 2, test: /[\\/]node_modules[\\/]/, priority: 10 },
  },
}

interface Built {
  /** Per chunk: its names, the source files it holds, and whether it shares a group with a page. */
  chunks: { names: string[]; files: string[]; cssFiles: string[]; groups: string[] }[]
}

async function build(withPlugin: boolean): Promise<Built> {
  const dir = mkdtempSync(path.join(tmpdir(), 'page-chunks-'))
  dirs.push(dir)
  const write = (file: string, text: string) => {
    mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
    writeFileSync(path.join(dir, file), text)
  }
  // A library over the sharing threshold, as NutUI or dayjs is for a page.
  const body = Array.from(
    { length: Math.ceil(SHARED_MIN_BYTES / 40) + 10 },
    (_, i) => `export function part${i}(x) { return x * ${i} + ${i} }`,
  ).join('\n')
  write('node_modules/ui-lib/package.json', '{"name":"ui-lib","main":"index.js"}')
  write('node_modules/ui-lib/index.js', `import './ui-lib.css'\n${body}`)
  // Its stylesheet over the threshold too: only the script test keeps it out of a shared chunk.
  const rules = Array.from(
    { length: Math.ceil(SHARED_MIN_BYTES / 20) },
    (_, i) => `.ui-lib-${i} { color: teal }`,
  )
  write('node_modules/ui-lib/ui-lib.css', rules.join('\n'))
  for (const page of ['home', 'list', 'report']) {
    write(`src/pages/${page}/${page}.css`, `.${page} { color: red }`)
    write(
      `src/pages/${page}/${page}.js`,
      `import * as ui from 'ui-lib'\nimport './${page}.css'\nexport default Object.keys(ui).length`,
    )
  }
  write(
    'src/app.js',
    ['home', 'list', 'report']
      .map((page) => `import(/* webpackChunkName: "${page}" */ './pages/${page}/${page}')`)
      .join('\n'),
  )
  const compiler = webpack({
    mode: 'production',
    context: dir,
    entry: './src/app.js',
    output: { path: path.join(dir, 'out'), filename: '[name].js', chunkFilename: '[name].js' },
    module: {
      rules: [
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, require.resolve('css-loader')] },
      ],
    },
    optimization: { minimize: false, splitChunks: structuredClone(TARO_SPLIT_CHUNKS) },
    plugins: [
      new MiniCssExtractPlugin({ ignoreOrder: true }),
      ...(withPlugin ? [new SharedPageChunksPlugin(path.join(dir, 'src/pages/home/home.'))] : []),
    ],
    infrastructureLogging: { level: 'error' },
  })
  const stats = await new Promise<webpack.Stats>((resolve, reject) =>
    compiler.run((error, result) => (error || !result ? reject(error) : resolve(result))),
  )
  await new Promise((resolve) => compiler.close(resolve))
  assert.equal(stats.hasErrors(), false, stats.toString('errors-only'))
  const json = stats.toJson({ chunks: true, chunkModules: true, nestedModules: true })
  const groupsOf = (id: string | number | undefined) =>
    Object.entries(json.namedChunkGroups ?? {})
      .filter(([, group]) => group.chunks?.includes(id!))
      .map(([name]) => name)
  const names = (m: webpack.StatsModule): string[] =>
    m.modules ? m.modules.flatMap(names) : [m.name ?? '']
  return {
    chunks: (json.chunks ?? []).map((chunk) => {
      const modules = (chunk.modules ?? []).flatMap(names)
      return {
        names: chunk.names ?? [],
        files: modules.filter((n) => !n.startsWith('css ')).map((n) => path.basename(n)),
        cssFiles: modules
          .filter((n) => n.startsWith('css '))
          .map((n) => path.basename(n.split('!').pop()!)),
        groups: groupsOf(chunk.id),
      }
    }),
  }
}

const holding = (built: Built, file: string) =>
  built.chunks.filter((chunk) => chunk.files.includes(file))
const named = (built: Built, name: string) => built.chunks.find((c) => c.names.includes(name))!

describe('shared page chunks (H5)', () => {
  test('without the plugin every page carries its own copy of the library (Taro splits initial chunks only)', async () => {
    const before = await build(false)
    assert.deepEqual(
      holding(before, 'index.js')
        .map((c) => c.names[0])
        .sort(),
      ['home', 'list', 'report'],
    )
  })

  test('with it, the pages after the home share one copy; the home keeps its own; CSS stays per page', async () => {
    const built = await build(true)
    const copies = holding(built, 'index.js')
    assert.equal(copies.length, 2, JSON.stringify(copies))
    // The home's chunk is as it was: the library inside, no split chunk in its group.
    assert.ok(named(built, 'home').files.includes('index.js'))
    assert.deepEqual(
      built.chunks.filter((c) => c.groups.includes('home')).map((c) => c.names),
      [['home']],
    )
    // One shared chunk, loaded by both other pages; their own chunks no longer hold the library.
    const shared = copies.find((c) => c.names.length === 0)!
    assert.deepEqual(shared.groups.sort(), ['list', 'report'])
    assert.ok(!named(built, 'list').files.includes('index.js'))
    assert.ok(!named(built, 'report').files.includes('index.js'))
    // Stylesheets are not moved: each page's chunk keeps the library's CSS and its own.
    for (const page of ['home', 'list', 'report'])
      assert.deepEqual(named(built, page).cssFiles.sort(), [`${page}.css`, 'ui-lib.css'])
    assert.deepEqual(shared.cssFiles, [])
  })
})
