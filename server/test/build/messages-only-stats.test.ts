// test-server: no database
/**
 * Taro's loggers read a build's errors with `stats.toJson({})`, which in webpack 5 also builds every
 * chunk's module list with every reason (minutes and gigabytes for this app, issue 18). With
 * config/messages-only-stats.ts such a call gets errors and warnings only; a caller naming options
 * still gets what it asked for. A two-module build in memory.
 */
import assert from 'node:assert/strict'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, test } from 'node:test'
import webpack, { type Stats } from 'webpack'
import { MessagesOnlyStatsPlugin } from '../../../config/messages-only-stats'

const dir = mkdtempSync(path.join(tmpdir(), 'yx-stats-'))
after(() => rmSync(dir, { recursive: true, force: true }))
mkdirSync(path.join(dir, 'src'))
writeFileSync(
  path.join(dir, 'src/index.js'),
  "import './missing'\nimport { a } from './a'\nconsole.log(a)\n",
)
writeFileSync(path.join(dir, 'src/a.js'), 'export const a = 1\n')

function build(plugins: webpack.WebpackPluginInstance[]): Promise<Stats> {
  return new Promise((resolve, reject) =>
    webpack(
      {
        mode: 'production',
        context: dir,
        entry: './src/index.js',
        output: { path: path.join(dir, 'dist') },
        plugins,
      },
      (error, stats) => (error || !stats ? reject(error) : resolve(stats)),
    ),
  )
}

test('toJson({}) gives errors and warnings without the chunk and module graph', async () => {
  const stats = await build([new MessagesOnlyStatsPlugin()])
  const json = stats.toJson({})
  assert.equal(json.errors?.length, 1)
  assert.match(json.errors![0]!.message, /missing/)
  assert.deepEqual(json.warnings, [])
  assert.equal(json.chunks, undefined)
  assert.equal(json.modules, undefined)
  // Named options are kept.
  assert.ok((stats.toJson({ chunks: true, chunkModules: true }).chunks?.length ?? 0) > 0)
})

test('without the plugin, the same call builds the module graph (what Taro paid for)', async () => {
  const json = (await build([])).toJson({})
  assert.ok((json.modules?.length ?? 0) > 0)
  assert.ok((json.chunks?.length ?? 0) > 0)
})
