import path from 'node:path'
import type { UserConfigExport } from '@tarojs/cli'
import { BundleStatsPlugin } from './bundle-stats'
import { FirstPaintPlugin } from './first-paint'
import {
  FirstScreenPlugin,
  H5_MAX_WIDTH,
  PrecompressPlugin,
  apiOrigins,
  homePageOf,
} from './h5-plugins'

export default {
  logger: { quiet: true, stats: false },
  mini: {},
  h5: {
    webpackChain(chain) {
      // Size is checked by scripts/check-budgets.ts against our own budgets, not webpack's defaults.
      chain.performance.hints(false)
      chain
        .plugin('first-screen')
        .use(FirstScreenPlugin, [{ sourceRoot: 'src', connectSrc: apiOrigins() }])
      chain.plugin('precompress').use(PrecompressPlugin)
      // After emit: a static copy of the home's first screen in index.html (config/first-paint.ts).
      chain
        .plugin('first-paint')
        .use(FirstPaintPlugin, [
          { homePage: homePageOf(path.resolve(__dirname, '..'), 'src'), maxWidth: H5_MAX_WIDTH },
        ])
      // What the chunks are made of, on request (config/bundle-stats.ts).
      if (process.env.BUNDLE_STATS === '1') chain.plugin('bundle-stats').use(BundleStatsPlugin)
    },
  },
} satisfies UserConfigExport<'webpack5'>
