/**
 * A static first paint of the home page in index.html (issue 6, section 5: LCP ≤ 1.5 s on a phone).
 *
 * On a slow phone the home's largest text used to paint only after 130 KB of JavaScript had arrived and
 * React and the Taro runtime had run (about 0.6 s at 4× CPU). The home shows the same thing to every
 * visitor, so after each production build Chromium opens the built app, takes the first screen as the
 * app draws it (navigation bar, home, tab bar) and writes that markup into index.html with the CSS it
 * needs that index.html does not load already. The browser paints it as soon as index.html and the app
 * CSS are in; the app replaces it the moment its first page has mounted.
 *
 * - Written by every build from the build's own output, never by hand: it cannot go stale.
 * - Only the home: a script in <head> drops the copy before the body is parsed when the address is any
 *   other page (index.html answers every deep link).
 * - The copy is `aria-hidden` and `inert` (screen readers and the keyboard see only the real app), lets
 *   taps through, has no ids (Taro looks its containers up by id) and sits fixed over the place where the
 *   app grows, so the swap moves nothing. A MutationObserver swaps in the same task as React's commit,
 *   so there is never a frame with both copies or with neither.
 * - Inline content and the CSP: the <style> elements are covered by style-src 'unsafe-inline'; the
 *   swap script is hashed by the server like every inline script of index.html (plugins/security.ts).
 */
import { createServer, type Server } from 'node:http'
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Compiler } from 'webpack'

const PLUGIN = 'yingxiang-first-paint'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]

/** The id of the static copy and of the CSS only it needs. */
export const FIRST_PAINT_ID = 'first-paint'
export const FIRST_PAINT_CSS_ID = 'first-paint-css'

/** What the browser extraction returns. */
export interface FirstPaint {
  markup: string
  css: string
}

/** Addresses where Taro opens the home page: the root and the page's own path. */
export function homePathPattern(homePage: string): string {
  const escaped = homePage.replace(/^\/+|\/+$/g, '').replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')
  return `^\\/(?:${escaped}\\/?)?$`
}

/**
 * The script in <head>. Off the home it removes the copy's CSS at once and the copy when the document
 * is parsed (until then the frame style hides it). On the home it removes both once the app's first
 * page is shown with content: a MutationObserver callback runs in the microtask checkpoint right after
 * the app's DOM change, before the next paint, so there is never a frame with both or with neither.
 * Until then the app's own navigation and tab bars mount under the copy, which lets taps through.
 */
export function swapScript(homePage: string): string {
  const source = `(function (d) {
  var r = d.documentElement, c = d.getElementById("${FIRST_PAINT_CSS_ID}");
  var drop = function () { var f = d.getElementById("${FIRST_PAINT_ID}"); if (f) f.remove(); };
  if (!new RegExp(${JSON.stringify(homePathPattern(homePage))}).test(location.pathname)) {
    r.classList.add("fp-off");
    if (c) c.remove();
    d.addEventListener("DOMContentLoaded", drop);
    return;
  }
  var o = new MutationObserver(function () {
    var p = d.querySelector("#app .taro_page.taro_page_show");
    if (!p || !p.firstElementChild) return;
    o.disconnect();
    drop();
    if (c) c.remove();
  });
  o.observe(r, { childList: true, subtree: true, attributes: true, attributeFilter: ["class"] });
})(document);`
  // Minified by hand (the build's minifier has run by now): line breaks and indentation only.
  return source.replace(/\n\s*/g, '')
}

/** The copy's own frame: fixed over the app's place (same width cap), hidden off the home. */
export function frameCss(maxWidth: number): string {
  return (
    `#${FIRST_PAINT_ID}{position:fixed;top:0;left:0;right:0;height:100%;max-width:${maxWidth}px;` +
    `margin:0 auto;z-index:1000;pointer-events:none}.fp-off #${FIRST_PAINT_ID}{display:none}`
  )
}

/** Puts the extracted first paint into index.html. */
export function injectFirstPaint(
  html: string,
  paint: FirstPaint,
  options: { homePage: string; maxWidth: number },
): string {
  const head =
    `<style id="${FIRST_PAINT_CSS_ID}">${paint.css}</style>` +
    `<style id="${FIRST_PAINT_ID}-frame">${frameCss(options.maxWidth)}</style>` +
    `<script>${swapScript(options.homePage)}</script>`
  if (!html.includes('</head>') || !/<div id="app"><\/div>/.test(html))
    throw new Error('index.html 缺少 </head> 或 <div id="app"></div>，无法写入首屏')
  return html
    .replace('</head>', `${head}</head>`)
    .replace(/<div id="app"><\/div>/, (app) => `${app}${paint.markup}`)
}

/**
 * Runs in the page: the app's root (Taro's tab-bar container, else #app) copied without what is not
 * displayed and without comments; classes, ids and custom element names renamed so that nothing that
 * looks the app up finds the copy; and the CSS rules the copy uses that index.html does not load
 * itself (the runtime's injected <style>s, the home chunk's CSS), plus, renamed, the rules of
 * index.html's own sheets that name the copy's classes, ids or elements.
 */
// Plain JavaScript in a string: a function handed to page.evaluate would carry whatever helpers the
// TypeScript loader of the moment adds (tsx adds __name), which do not exist in the page.
const EXTRACT = String.raw`(id) => {
  const root = document.getElementById('container') || document.getElementById('app')
  const ids = new Set()
  const classes = new Set()
  const tags = new Set()
  const copy = (node) => {
    if (node.nodeType === Node.COMMENT_NODE) return null
    if (node.nodeType !== Node.ELEMENT_NODE) return node.cloneNode(false)
    if (getComputedStyle(node).display === 'none') return null
    let clone = node.cloneNode(false)
    if (node.localName.includes('-')) {
      // A custom element (Taro's components) would be upgraded when the app defines it, and run
      // without its props (the tab bar throws): the copy gets an undefined name.
      tags.add(node.localName)
      clone = document.createElement('fp-' + node.localName)
      for (const attribute of node.attributes) clone.setAttribute(attribute.name, attribute.value)
    }
    // NutUI's icons are masks with base64 SVG data: as text the same SVG brotli-compresses far better.
    const style = clone.getAttribute('style')
    if (style && style.includes('data:image/svg+xml;base64,'))
      clone.setAttribute(
        'style',
        style.replace(/data:image\/svg\+xml;base64,([A-Za-z0-9+/=]+)/g, (_, data) =>
          'data:image/svg+xml,' +
          new TextDecoder().decode(Uint8Array.from(atob(data), (c) => c.charCodeAt(0)))
            .replace(/[%#"<>\n]/g, encodeURIComponent),
        ),
      )
    // Renamed classes and no ids: nothing that looks the app's elements up (Taro's router, scripts,
    // tests) ever finds the copy.
    const names = [...clone.classList]
    names.forEach((name) => classes.add(name))
    clone.className = names.map((name) => 'fp-' + name).join(' ')
    if (!clone.className) clone.removeAttribute('class')
    if (clone.id) {
      ids.add(clone.id)
      clone.classList.add('fp-id-' + clone.id)
      clone.removeAttribute('id')
    }
    for (const child of node.childNodes) {
      const childCopy = copy(child)
      if (childCopy) clone.appendChild(childCopy)
    }
    return clone
  }
  const placeholder = copy(root)
  placeholder.id = id
  placeholder.setAttribute('aria-hidden', 'true')
  placeholder.setAttribute('inert', '')

  const used = (selector) => {
    // Pseudo-elements and states never match querySelectorAll; the element they belong to does.
    const plain = selector
      .replace(/::?(before|after|placeholder|selection|-webkit-[\w-]+|-moz-[\w-]+)/g, '')
      .replace(/:(hover|active|focus|focus-visible|focus-within|visited)/g, '')
    if (plain.trim() === '') return false
    try {
      return [...document.querySelectorAll(plain)].some(
        (element) =>
          element === document.documentElement || element === document.body || root.contains(element),
      )
    } catch {
      return false
    }
  }
  const rename = (selector) =>
    selector
      .replace(/([.#])(-?[_a-zA-Z][\w-]*)/g, (token, kind, name) =>
        kind === '.' ? (classes.has(name) ? '.fp-' + name : token) : ids.has(name) ? '.fp-id-' + name : token,
      )
      .replace(/(^|[\s>+~,(])([a-z][\w]*-[\w-]*)(?![\w-])/g, (token, before, tag) =>
        tags.has(tag) ? before + 'fp-' + tag : token,
      )
  const rules = (list, initial) => {
    let out = ''
    for (const rule of list) {
      if (rule instanceof CSSStyleRule) {
        if (!used(rule.selectorText)) continue
        const selector = rename(rule.selectorText)
        // What index.html loads itself applies at first paint already, unless the copy's names differ.
        if (!initial || selector !== rule.selectorText)
          out += selector + '{' + rule.style.cssText + '}'
      } else if (rule instanceof CSSMediaRule || rule instanceof CSSSupportsRule) {
        const inner = rules(rule.cssRules, initial)
        if (inner)
          out += '@' + (rule instanceof CSSMediaRule ? 'media' : 'supports') + ' ' + rule.conditionText + '{' + inner + '}'
      }
      // @font-face and @keyframes: nothing the home shows needs them before the app runs.
    }
    return out
  }
  let css = ''
  for (const sheet of document.styleSheets) {
    const owner = sheet.ownerNode
    if (!owner) continue
    css += rules(sheet.cssRules, owner.hasAttribute('data-fp-initial'))
  }
  return { markup: placeholder.outerHTML, css }
}`

/** Serves a build folder as the app's server does for a page: files, else index.html. */
function serveFolder(dir: string): Promise<{ server: Server; url: string }> {
  const types: Record<string, string> = {
    '.js': 'text/javascript',
    '.css': 'text/css',
    '.png': 'image/png',
    '.svg': 'image/svg+xml',
    '.json': 'application/json',
  }
  const server = createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)
    const file = path.join(dir, path.normalize(pathname))
    const found = file.startsWith(dir) && existsSync(file) && statSync(file).isFile()
    if (!found && path.extname(pathname)) {
      response.statusCode = 404
      response.end()
      return
    }
    const served = found ? file : path.join(dir, 'index.html')
    response.setHeader('content-type', types[path.extname(served)] ?? 'text/html; charset=utf-8')
    response.end(readFileSync(served))
  })
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      resolve({
        server,
        url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`,
      })
    }),
  )
}

/** Opens the built app in Chromium at the phone size and extracts its first screen. */
export async function renderFirstPaint(dir: string): Promise<FirstPaint> {
  // Loaded here, so a build that never prerenders does not load the browser driver. Same browser and
  // phone as the e2e suite and the LCP bench (scripts/lib/browser.ts, which the config loader cannot
  // import at run time).
  const { chromium } = await import('playwright-core')
  if (!existsSync(CHROMIUM)) throw new Error(`找不到 Chromium（${CHROMIUM}）`)
  const { server, url } = await serveFolder(dir)
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
  })
  try {
    const context = await browser.newContext({
      viewport: { width: 375, height: 812 },
      deviceScaleFactor: 2,
      isMobile: true,
      hasTouch: true,
      locale: 'zh-CN',
    })
    const page = await context.newPage()
    // Only the build's own files: the copy must not depend on (or show) anything from an API.
    await page.route('**/*', (route) =>
      route.request().url().startsWith(url) ? route.continue() : route.abort(),
    )
    // What index.html itself loads is there at first paint anyway; everything later is not. Deferred
    // scripts (the app) run after readyState turns interactive.
    await page.addInitScript(`document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return
      for (const node of document.querySelectorAll('style,link[rel="stylesheet"]'))
        node.setAttribute('data-fp-initial', '')
    })`)
    await page.goto(`${url}/`, { waitUntil: 'networkidle', timeout: 60_000 })
    await page.waitForSelector('#app .taro_page.taro_page_show > *', { timeout: 60_000 })
    await page.evaluate('document.fonts.ready.then(() => true)')
    return (await page.evaluate(`(${EXTRACT})(${JSON.stringify(FIRST_PAINT_ID)})`)) as FirstPaint
  } finally {
    await browser.close()
    server.close()
  }
}

/** Rewrites index.html and its precompressed twins (PrecompressPlugin wrote them before emit). */
function writeHtml(file: string, html: string): void {
  const raw = Buffer.from(html)
  writeFileSync(file, raw)
  const br = brotliCompressSync(raw, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
    },
  })
  const gz = gzipSync(raw, { level: 9 })
  if (br.length < raw.length) writeFileSync(`${file}.br`, br)
  if (gz.length < raw.length) writeFileSync(`${file}.gz`, gz)
}

export class FirstPaintPlugin {
  constructor(private readonly options: { homePage: string; maxWidth: number }) {}

  apply(compiler: Compiler): void {
    compiler.hooks.afterEmit.tapPromise(PLUGIN, async (compilation) => {
      if (compilation.errors.length > 0) return
      const dir = compilation.outputOptions.path!
      const file = path.join(dir, 'index.html')
      if (!existsSync(file)) return
      const started = Date.now()
      const html = readFileSync(file, 'utf8')
      let paint: FirstPaint
      try {
        paint = await renderFirstPaint(dir)
      } catch (error) {
        // Without a browser the app still works; it only paints later. Say so loudly, do not fail.
        console.warn(
          `⚠️  首屏静态预渲染未执行，首页将在脚本运行后才显示（first paint not prerendered）：${(error as Error).message}`,
        )
        return
      }
      writeHtml(file, injectFirstPaint(html, paint, this.options))
      console.log(
        `首屏静态预渲染：${(Buffer.byteLength(paint.markup) / 1024).toFixed(1)} KB 标记 + ${(Buffer.byteLength(paint.css) / 1024).toFixed(1)} KB CSS，${Date.now() - started} ms`,
      )
    })
  }
}
