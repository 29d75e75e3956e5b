import type { UserConfigExport } from '@tarojs/cli'

export default {
  logger: { quiet: true, stats: false },
  mini: {},
  h5: {
    // Size is checked by scripts/check-budgets.ts against our own budgets, not webpack's defaults.
    webpackChain(chain) {
      chain.performance.hints(false)
    },
  },
} satisfies UserConfigExport<'webpack5'>
