import type { UserConfigExport } from '@tarojs/cli'
import { FirstScreenPlugin, PrecompressPlugin, apiOrigins } from './h5-plugins'

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
    },
  },
} satisfies UserConfigExport<'webpack5'>
