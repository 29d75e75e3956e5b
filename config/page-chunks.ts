/**
 * H5 pages share the code they have in common instead of each carrying its own copy (issue 19).
 *
 * Taro's router loads every page with import(): an async chunk. Taro splits only the app's initial
 * chunks (splitChunks `chunks: 'initial'`), so each page chunk held its own copy of every NutUI
 * component, dayjs, the form kit and the services it uses: 14 MB of JavaScript in dist/h5, and a
 * page opened after the home downloaded again what the previous page had brought.
 *
 * Here the JavaScript that two or more pages use moves into shared chunks, one per set of pages
 * that use it (webpack's splitChunks with `name: false`), which the browser keeps once it has them.
 * Two things stay as they were:
 * - the home page's chunk. It is part of the first screen (index.html preloads it, and the budget
 *   h5FirstScreenBrotli counts it); split, its bytes would spread over several smaller files that
 *   compress worse and each cost a request. The home keeps its own copy; the other pages share theirs.
 * - stylesheets. A page's CSS stays in its own file, in the order it had, so nothing looks different.
 */
import type { Chunk, Compiler, Module } from 'webpack'
import { moduleResources } from './h5-plugins'

const PLUGIN = 'yingxiang-page-chunks'

/** The splitChunks cache group this plugin adds. */
export const SHARED_GROUP = 'sharedPages'

/** Below this (webpack's module bytes before minification) a shared piece stays copied in its pages. */
export const SHARED_MIN_BYTES = 20_000

/**
 * At most this many files for opening a page (its own chunk and the shared ones): one round of a
 * browser's six connections to a host over HTTP/1.1. Webpack keeps the largest shared pieces; what
 * would need a seventh file stays copied in the page's chunk.
 */
export const PAGE_MAX_FILES = 6

export class SharedPageChunksPlugin {
  private readonly homeChunks = new WeakSet<Chunk>()

  /** `homeResourcePrefix`: the home page's source path without extension, plus '.'. */
  constructor(private readonly homeResourcePrefix: string) {}

  apply(compiler: Compiler): void {
    // Plugins are applied before webpack reads optimization.splitChunks, so the group is added here,
    // next to Taro's groups (which see initial chunks only). Taro turns splitting off altogether for
    // its native-component builds; then there is nothing to add to.
    const splitChunks = compiler.options.optimization.splitChunks
    if (!splitChunks) return
    splitChunks.cacheGroups = {
      ...splitChunks.cacheGroups,
      [SHARED_GROUP]: {
        chunks: (chunk: Chunk) => !chunk.canBeInitial() && !this.homeChunks.has(chunk),
        // Script modules only: mini-css-extract's modules keep each page's CSS whole, in its order.
        test: (module: Module) => module.type.startsWith('javascript/'),
        minChunks: 2,
        minSize: SHARED_MIN_BYTES,
        maxAsyncRequests: PAGE_MAX_FILES,
        // Webpack would split pieces above 50 KB whatever the file count; the cap holds for all.
        enforceSizeThreshold: Infinity,
        name: false,
        priority: 20,
        reuseExistingChunk: true,
      },
    }
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      // Before splitChunks (which runs at STAGE_ADVANCED): mark the chunks of the home page's module.
      compilation.hooks.optimizeChunks.tap({ name: PLUGIN, stage: -10 }, () => {
        for (const module of compilation.modules) {
          const files = moduleResources(module)
          if (!files.some((file) => file.startsWith(this.homeResourcePrefix))) continue
          for (const chunk of compilation.chunkGraph.getModuleChunksIterable(module))
            if (!chunk.canBeInitial()) this.homeChunks.add(chunk)
        }
      })
    })
  }
}
