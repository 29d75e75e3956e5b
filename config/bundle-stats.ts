/**
 * What the H5 build's JavaScript is made of, for finding what grew a chunk (no analyser package: the
 * build's own chunk graph). On with `BUNDLE_STATS=1 npm run build:h5`; writes `.bundle-stats.json`
 * next to index.html (never served: the server sends only what the app asks for, and nothing asks for
 * it) and prints the initial chunks' largest modules.
 *
 * Sizes are webpack's module sizes: the source after Babel, before minification. They rank modules
 * well; the shipped bytes are what scripts/check-budgets.ts measures.
 */
import path from 'node:path'
import type { Compilation, Compiler, Module } from 'webpack'

const PLUGIN = 'yingxiang-bundle-stats'
export const BUNDLE_STATS_FILE = '.bundle-stats.json'

export interface ChunkStats {
  files: string[]
  /** Loaded by index.html itself (the entry's chunks), before any page. */
  initial: boolean
  /** Summed module sizes, bytes. */
  bytes: number
  /** The chunk's modules by source path (node_modules/... or src/...), largest first. */
  modules: { name: string; bytes: number }[]
}

type Inner = { resource?: string; modules?: Iterable<Inner>; size(): number }

/** A concatenated module stands for several sources: list each with its own size. */
function sources(module: Inner, context: string): { name: string; bytes: number }[] {
  if (module.modules) return [...module.modules].flatMap((inner) => sources(inner, context))
  const name = module.resource
    ? path.relative(context, module.resource).split(path.sep).join('/')
    : '(webpack runtime and generated modules)'
  return [{ name, bytes: module.size() }]
}

export function collectStats(compilation: Compilation, context: string): ChunkStats[] {
  const { chunkGraph } = compilation
  const initialFiles = new Set<string>()
  for (const entrypoint of compilation.entrypoints.values())
    for (const file of entrypoint.getFiles()) initialFiles.add(file)
  const chunks: ChunkStats[] = []
  for (const chunk of compilation.chunks) {
    const files = [...chunk.files].filter((file) => file.endsWith('.js'))
    if (files.length === 0) continue
    const merged = new Map<string, number>()
    for (const module of chunkGraph.getChunkModulesIterable(chunk) as Iterable<Module>)
      for (const { name, bytes } of sources(module as unknown as Inner, context))
        merged.set(name, (merged.get(name) ?? 0) + bytes)
    const modules = [...merged]
      .map(([name, bytes]) => ({ name, bytes }))
      .sort((a, b) => b.bytes - a.bytes)
    chunks.push({
      files,
      initial: files.some((file) => initialFiles.has(file)),
      bytes: modules.reduce((sum, m) => sum + m.bytes, 0),
      modules,
    })
  }
  return chunks.sort((a, b) => Number(b.initial) - Number(a.initial) || b.bytes - a.bytes)
}

/** Groups a module path by package (node_modules/<pkg>) or by source folder (src/<a>/<b>). */
export function groupOf(name: string): string {
  const nm = name.lastIndexOf('node_modules/')
  if (nm >= 0) {
    const rest = name.slice(nm + 'node_modules/'.length).split('/')
    return `node_modules/${rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]}`
  }
  return name.split('/').slice(0, 3).join('/')
}

export class BundleStatsPlugin {
  apply(compiler: Compiler): void {
    const { sources: webpackSources } = compiler.webpack
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: compiler.webpack.Compilation.PROCESS_ASSETS_STAGE_REPORT },
        () => {
          const chunks = collectStats(compilation, compiler.context)
          compilation.emitAsset(
            BUNDLE_STATS_FILE,
            new webpackSources.RawSource(`${JSON.stringify(chunks, null, 1)}\n`),
          )
          for (const chunk of chunks.filter((c) => c.initial)) {
            console.log(`\n${chunk.files.join(', ')}: ${(chunk.bytes / 1024).toFixed(1)} KB`)
            const groups = new Map<string, number>()
            for (const m of chunk.modules)
              groups.set(groupOf(m.name), (groups.get(groupOf(m.name)) ?? 0) + m.bytes)
            for (const [group, bytes] of [...groups].sort((a, b) => b[1] - a[1]).slice(0, 25))
              console.log(`  ${(bytes / 1024).toFixed(1).padStart(7)} KB  ${group}`)
          }
        },
      )
    })
  }
}
