import path from 'node:path'
import type { UserConfigExport } from '@tarojs/cli'
import TerserPlugin from 'terser-webpack-plugin'
import { BuildTimesPlugin } from './build-times'
import { BundleStatsPlugin } from './bundle-stats'
import { FirstPaintPlugin } from './first-paint'
import {
  FirstScreenPlugin,
  H5_MAX_WIDTH,
  PrecompressPlugin,
  apiOrigins,
  homePageOf,
} from './h5-plugins'
import { SharedPageChunksPlugin } from './page-chunks'

/** The options of SWC's minifier, as terser-webpack-plugin hands them on. */
type SwcMinifyOptions = NonNullable<Parameters<typeof TerserPlugin.swcMinify>[2]>

export default {
  logger: { quiet: true, stats: false },
  mini: {},
  h5: {
    webpackChain(chain) {
      // Size is checked by scripts/check-budgets.ts against our own budgets, not webpack's defaults.
      chain.performance.hints(false)
      // SWC's minifier (@swc/core, pinned by @tarojs/helper) in place of Terser, with Taro's options
      // for Terser (function names kept): Terser took most of the first build (issue 18). In this
      // process, not a worker: each call runs on libuv's thread pool, so every core minifies at once,
      // where terser-webpack-plugin's one worker (cores - 1) would take the chunks one by one. Licence
      // comments (/*! ..., @license) stay in the file: this SWC cannot move them to .LICENSE.txt files.
      chain.optimization.minimizer('terserPlugin').use(TerserPlugin<SwcMinifyOptions>, [
        {
          parallel: false,
          minify: TerserPlugin.swcMinify,
          extractComments: false,
          terserOptions: {
            compress: { keep_fnames: true },
            mangle: { keep_fnames: true },
            format: { comments: 'some' },
          },
        },
      ])
      // Pages after the home share the code they have in common (config/page-chunks.ts).
      const root = path.resolve(__dirname, '..')
      chain
        .plugin('shared-page-chunks')
        .use(SharedPageChunksPlugin, [`${path.join(root, 'src', homePageOf(root, 'src'))}.`])
      chain
        .plugin('first-screen')
        .use(FirstScreenPlugin, [{ sourceRoot: 'src', connectSrc: apiOrigins() }])
      chain.plugin('precompress').use(PrecompressPlugin)
      // After emit: a static copy of the home's first screen in index.html (config/first-paint.ts).
      chain
        .plugin('first-paint')
        .use(FirstPaintPlugin, [{ homePage: homePageOf(root, 'src'), maxWidth: H5_MAX_WIDTH }])
      // What the chunks are made of, on request (config/bundle-stats.ts).
      if (process.env.BUNDLE_STATS === '1') chain.plugin('bundle-stats').use(BundleStatsPlugin)
      // Where the time went, one line at the end (config/build-times.ts).
      chain.plugin('build-times').use(BuildTimesPlugin)
    },
  },
} satisfies UserConfigExport<'webpack5'>
