/**
 * Where a production build's time goes (issue 18: `npm start`'s first build), printed as one line when
 * the build is done. Each phase ends at a webpack hook:
 *
 * - start: Taro's CLI, the config and webpack's set-up, until the compilation begins;
 * - modules: every module loaded and transformed (Babel, Sass, PostCSS), read from the persistent
 *   cache instead when it has them;
 * - chunks: chunk graph, optimisation, code generation;
 * - minify: JavaScript and CSS minifiers (processAssets' OPTIMIZE_SIZE stage);
 * - precompress: everything after, up to emit (brotli and gzip of every file, content hashes);
 * - emit: writing the files and the first-paint render (config/first-paint.ts, after emit).
 *
 * Wall-clock seconds, and the CPU seconds of the build's own process (its threads included, Chromium not), so a
 * figure taken on a busy machine can be read: a phase whose wall time is far above its CPU time was
 * waiting for a core.
 */
import type { Compiler } from 'webpack'

const PLUGIN = 'yingxiang-build-times'

type Phase = 'start' | 'modules' | 'chunks' | 'minify' | 'precompress' | 'emit'

export const PHASE_NAMES: Record<Phase, string> = {
  start: '启动',
  modules: '编译模块',
  chunks: '分块',
  minify: '压缩',
  precompress: '预压缩',
  emit: '写出与首屏',
}

/** A moment of the build: seconds since the process started, and CPU seconds the process used. */
export interface Mark {
  wall: number
  cpu: number
}

/** One line: each phase's wall seconds (its CPU seconds in brackets), then the totals. */
export function describeBuildTimes(ends: Partial<Record<Phase, Mark>>): string {
  let previous: Mark = { wall: 0, cpu: 0 }
  const parts: string[] = []
  for (const phase of Object.keys(PHASE_NAMES) as Phase[]) {
    const end = ends[phase]
    if (end === undefined) continue
    parts.push(
      `${PHASE_NAMES[phase]} ${(end.wall - previous.wall).toFixed(1)}（${(end.cpu - previous.cpu).toFixed(1)}）`,
    )
    previous = end
  }
  return `构建用时（秒，括号内为本进程 CPU 秒）：${parts.join('，')}；共 ${previous.wall.toFixed(1)}（${previous.cpu.toFixed(1)}）`
}

export class BuildTimesPlugin {
  apply(compiler: Compiler): void {
    const { Compilation } = compiler.webpack
    // Seconds since the process started: Taro's start-up is part of what a user waits for.
    const now = (): Mark => {
      const cpu = process.cpuUsage()
      return { wall: process.uptime(), cpu: (cpu.user + cpu.system) / 1e6 }
    }
    const ends: Partial<Record<Phase, Mark>> = {}
    compiler.hooks.compilation.tap(PLUGIN, () => {
      ends.start ??= now()
    })
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.finishModules.tap(PLUGIN, () => {
        ends.modules = now()
      })
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE - 1 },
        () => {
          ends.chunks = now()
        },
      )
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1 },
        () => {
          ends.minify = now()
        },
      )
    })
    compiler.hooks.emit.tap(PLUGIN, () => {
      ends.precompress = now()
    })
    compiler.hooks.done.tap(PLUGIN, () => {
      ends.emit = now()
      console.log(describeBuildTimes(ends))
    })
  }
}
