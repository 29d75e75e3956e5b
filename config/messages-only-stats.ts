/**
 * Taro's build loggers read a build's errors and warnings with `stats.toJson({})` (webpack-format-
 * messages, from Taro's progress bar and again from its production logger). In webpack 5 an empty
 * options object means every default of `toJson`: the chunks with their modules and, for each module,
 * every reason it was included. For this app that took minutes of CPU and over 2 GB after the bundle was
 * already written (issue 18: most of `npm start`'s first build), and the result was only searched for
 * errors and warnings.
 *
 * This plugin gives such a request (no option named at all) errors and warnings only, with their details
 * and module traces as webpack prints them. A caller that names any option gets exactly what it asked.
 */
import type { Compiler } from 'webpack'

const PLUGIN = 'yingxiang-messages-only-stats'

/** What a `toJson({})` gets: webpack's 'errors-warnings' preset, with the details an error needs. */
export const MESSAGES_ONLY = {
  all: false,
  errors: true,
  errorsCount: true,
  errorDetails: true,
  errorStack: true,
  moduleTrace: true,
  warnings: true,
  warningsCount: true,
} as const

/** Fills an options object that names nothing; anything else is left to webpack's defaults. */
export function messagesOnly(options: Record<string, unknown>): void {
  if (Object.keys(options).length === 0) Object.assign(options, MESSAGES_ONLY)
}

export class MessagesOnlyStatsPlugin {
  apply(compiler: Compiler): void {
    compiler.hooks.compilation.tap(PLUGIN, (compilation) => {
      // Before webpack's own defaults (DefaultStatsPresetPlugin, stage 0) fill what is unset.
      compilation.hooks.statsNormalize.tap({ name: PLUGIN, stage: -10 }, (options) =>
        messagesOnly(options as Record<string, unknown>),
      )
    })
  }
}
