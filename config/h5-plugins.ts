/**
 * Webpack plugins of the H5 production build (issue 6, section 5: the first screen on a phone network).
 *
 * - FirstScreenPlugin: index.html preloads the home page's own chunk (JS and CSS), so it downloads in
 *   parallel with the app chunk instead of after it has run. The file names come from the build's
 *   chunk graph, never from a list written by hand.
 * - PrecompressPlugin: writes `.br` and `.gz` beside every JS, CSS, HTML, SVG and JSON file, which the
 *   server sends as they are (@fastify/static `preCompressed`), so nothing is compressed per request.
 * - It also keeps NutUI's JDZH digit fonts (two TrueType files inlined as base64 by NutUI's theme, 8 KB
 *   of the 10 KB brotli app CSS) out of the render-blocking stylesheet: no first-screen text uses them,
 *   and NutUI's Price falls back to the system font.
 */
import { promisify } from 'node:util'
import path from 'node:path'
import { brotliCompress, constants, gzip } from 'node:zlib'
import { readConfig } from '@tarojs/helper'
import type { Compilation, Compiler } from 'webpack'

const PLUGIN = 'yingxiang-h5'

/** The CSP's connect-src needs the origins the app calls; the server reads them from this file. */
export const BUILD_META_FILE = '.build-meta.json'

export interface BuildMeta {
  /** Origins the app talks to besides its own (TARO_APP_API_ORIGIN, TARO_APP_HOST_*). */
  connectSrc: string[]
  /** The files the home page needs before its first paint, in the order index.html names them. */
  firstScreen: string[]
}

/** Origins named by the build environment (they are baked into the app), for connect-src. */
export function apiOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const origins = new Set<string>()
  for (const [name, value] of Object.entries(env)) {
    if (!value || !(name === 'TARO_APP_API_ORIGIN' || name.startsWith('TARO_APP_HOST_'))) continue
    try {
      const url = new URL(value)
      if (url.protocol === 'https:' || url.protocol === 'http:') origins.add(url.origin)
    } catch {
      // Not an absolute address: it is relative to the page's own origin, which 'self' covers.
    }
  }
  return [...origins].sort()
}

interface FirstScreenOptions {
  /** Source path of the home page without extension (pages/main/main); app.config's first by default. */
  homePage?: string
  sourceRoot: string
  connectSrc: string[]
  htmlFile?: string
}

type AnyModule = { resource?: string; modules?: Iterable<AnyModule> }

/** A module's source files; production builds concatenate modules, so look inside those too. */
export function moduleResources(module: object): string[] {
  const { resource, modules } = module as AnyModule
  if (resource) return [resource]
  return modules ? [...modules].flatMap(moduleResources) : []
}

/** The files of the chunks that hold `resourcePrefix`, beyond the ones index.html already loads. */
function homeChunkFiles(compilation: Compilation, resourcePrefix: string): string[] {
  const { chunkGraph } = compilation
  const initial = new Set<string>()
  for (const entrypoint of compilation.entrypoints.values()) {
    for (const file of entrypoint.getFiles()) initial.add(file)
  }
  const files = new Set<string>()
  for (const module of compilation.modules) {
    if (!moduleResources(module).some((resource) => resource.startsWith(resourcePrefix))) continue
    for (const chunk of chunkGraph.getModuleChunksIterable(module)) {
      // Everything the page's import() waits for: its own chunk and the split chunks it shares.
      for (const group of chunk.groupsIterable) {
        for (const member of group.chunks) {
          for (const file of member.files) {
            if (!initial.has(file) && /\.(js|css)$/.test(file)) files.add(file)
          }
        }
      }
    }
  }
  return [...files].sort((a, b) => (a.endsWith('.css') ? 0 : 1) - (b.endsWith('.css') ? 0 : 1))
}

/** A minified @font-face of NutUI's JDZH family (no nested braces inside one). */
const JDZH_FONT_FACE = /@font-face\{[^{}]*font-family:\s*["']?JDZH-[^{}]*\}/g

/**
 * Strips the JDZH faces from the CSS that index.html loads. Runs before webpack's real content hash
 * step, which then renames the file after its new content and updates index.html.
 */
function dropInlinedFonts(
  compilation: Compilation,
  RawSource: Compiler['webpack']['sources']['RawSource'],
): void {
  for (const entrypoint of compilation.entrypoints.values()) {
    for (const file of entrypoint.getFiles()) {
      if (!file.endsWith('.css')) continue
      const css = compilation.getAsset(file)?.source.source().toString() ?? ''
      const stripped = css.replace(JDZH_FONT_FACE, '')
      if (stripped !== css) compilation.updateAsset(file, new RawSource(stripped))
    }
  }
}

interface AppConfig {
  entryPagePath?: string
  pages?: string[]
  window?: { navigationBarBackgroundColor?: string }
}

/** src/app.config.ts, read by Taro's own reader (esbuild), so it may import routes.ts and theme.ts. */
function appConfigOf(context: string, sourceRoot: string): AppConfig {
  return readConfig(path.join(context, sourceRoot, 'app.config.ts')) as AppConfig
}

/** The page the browser opens at /, as Taro decides it: entryPagePath, else the first page. */
export function homePageOf(context: string, sourceRoot: string): string {
  const app = appConfigOf(context, sourceRoot)
  const home = app.entryPagePath ?? app.pages?.[0]
  if (!home) throw new Error('app.config 没有页面（no pages in app.config）')
  return home
}

/**
 * The colour of the browser's bar around the H5 app (index.html's theme-color): the navigation bar's,
 * the theme's brand colour (src/theme.ts), read through app.config like the home page.
 */
export function themeColorOf(context: string, sourceRoot: string): string {
  const colour = appConfigOf(context, sourceRoot).window?.navigationBarBackgroundColor
  if (!colour) throw new Error('app.config 没有导航栏颜色（no navigationBarBackgroundColor）')
  return colour
}

export class FirstScreenPlugin {
  constructor(private readonly options: FirstScreenOptions) {}

  /** The page the browser opens at /, as Taro decides it: entryPagePath, else the first page. */
  private homePage(context: string): string {
    return this.options.homePage ?? homePageOf(context, this.options.sourceRoot)
  }

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack
    const htmlFile = this.options.htmlFile ?? 'index.html'
    const homePage = this.homePage(compiler.context)
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        // After html-webpack-plugin has written index.html (it runs at OPTIMIZE_INLINE).
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_INLINE + 1 },
        () => {
          const asset = compilation.getAsset(htmlFile)
          if (!asset) return
          const publicPath = String(compilation.outputOptions.publicPath ?? '/').replace(
            /\/?$/,
            '/',
          )
          const home = homeChunkFiles(
            compilation,
            path.join(compiler.context, this.options.sourceRoot, homePage) + '.',
          )
          if (home.length === 0) {
            compilation.errors.push(
              new compiler.webpack.WebpackError(
                `找不到首页 ${homePage} 的代码块，无法生成 preload（first screen preload: home chunk not found）`,
              ),
            )
            return
          }
          dropInlinedFonts(compilation, sources.RawSource)

          let html = asset.source.source().toString()
          const links = home
            .map(
              (file) =>
                `<link rel="preload" href="${publicPath}${file}" as="${file.endsWith('.css') ? 'style' : 'script'}">`,
            )
            .join('')
          // Right after <title>, ahead of the app's own tags, so the parser finds them first.
          html = html.includes('</title>')
            ? html.replace('</title>', `</title>${links}`)
            : html.replace('</head>', `${links}</head>`)
          compilation.updateAsset(htmlFile, new sources.RawSource(html))

          const named = [...html.matchAll(/<(?:script|link)\b[^>]*?(?:src|href)="([^"]+)"[^>]*>/g)]
            .filter(([tag]) => !/rel="icon"/.test(tag))
            .map(([, url]) => url!.replace(publicPath, ''))
          const meta: BuildMeta = {
            connectSrc: this.options.connectSrc,
            firstScreen: [htmlFile, ...new Set(named)],
          }
          compilation.emitAsset(
            BUILD_META_FILE,
            new sources.RawSource(`${JSON.stringify(meta, null, 2)}\n`),
          )
        },
      )
    })
  }
}

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

/**
 * Brotli quality 10, not 11: measured on this app's 13 MB of JavaScript, 11 took 30 CPU seconds of the
 * first build and 10 takes 11, for 2 % more bytes (3.77 → 3.85 MB; quality 9: 2.7 s but 9 % more).
 * The first build is what a newcomer waits for (issue 18); 2 % of a 40 KB page chunk is under 1 KB.
 */
export const BROTLI_QUALITY = 10

/** Text formats worth compressing; images and fonts are compressed already. */
export const COMPRESSIBLE = /\.(js|css|html|svg|json)$/

export class PrecompressPlugin {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tapPromise(
        // After minification, inlining and our index.html edit: the bytes that ship.
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_TRANSFER },
        async () => {
          const jobs = compilation
            .getAssets()
            .filter((asset) => COMPRESSIBLE.test(asset.name) && asset.name !== BUILD_META_FILE)
            .map(async (asset) => {
              const raw = asset.source.buffer()
              const [br, gz] = await Promise.all([
                brotli(raw, {
                  params: {
                    [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
                    [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
                  },
                }),
                gzipAsync(raw, { level: 9 }),
              ])
              // A variant that saves nothing is left out; the server then sends the file itself.
              if (br.length < raw.length)
                compilation.emitAsset(`${asset.name}.br`, new sources.RawSource(br))
              if (gz.length < raw.length)
                compilation.emitAsset(`${asset.name}.gz`, new sources.RawSource(gz))
            })
          await Promise.all(jobs)
        },
      )
    })
  }
}

/**
 * SPEC section 9: design width 750 at base device width 375, max 800. On a wider screen the page keeps
 * its 800 px phone layout, centred (the rem size stops growing at the same width: config/index.ts).
 */
export const H5_MAX_WIDTH = 800

/** The styles that cap the app at `maxWidth`; outside it, a slightly darker ground frames the page. */
export function pageFrameCss(maxWidth: number = H5_MAX_WIDTH): string {
  return [
    // Taro's tab-bar app moves #app into #container (navigation bar, pages, tab bar); both are capped.
    `#app,body>.taro-tabbar__container{max-width:${maxWidth}px;margin:0 auto}`,
    `@media (min-width:${maxWidth + 1}px){html,html body{background-color:#e5e7eb}#app,body>.taro-tabbar__container{background-color:#f3f4f6}}`,
  ].join('')
}

/** Puts the frame styles into index.html's head, so the first paint already has the final width. */
export class PageFramePlugin {
  constructor(private readonly maxWidth: number = H5_MAX_WIDTH) {}

  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack
    compiler.hooks.thisCompilation.tap(PLUGIN, (compilation) => {
      compilation.hooks.processAssets.tap(
        { name: PLUGIN, stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_INLINE + 1 },
        () => {
          const asset = compilation.getAsset('index.html')
          if (!asset) return
          const html = asset.source.source().toString()
          const style = `<style id="page-frame">${pageFrameCss(this.maxWidth)}</style>`
          compilation.updateAsset(
            'index.html',
            new sources.RawSource(html.replace('</head>', `${style}</head>`)),
          )
        },
      )
    })
  }
}
