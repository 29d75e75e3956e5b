import { readFileSync, readdirSync, statSync } from 'node:fs'
import path from 'node:path'
import { gzipSync } from 'node:zlib'
import { launchChromium, newPhone } from './browser'
import { startServer } from './server'

export const ROOT = path.resolve(__dirname, '..', '..')
export const WEAPP_DIR = path.join(ROOT, 'dist', 'weapp')
export const H5_DIR = path.join(ROOT, 'dist', 'h5')

export interface PackageSize {
  name: string
  bytes: number
  files: number
}

function walk(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((file) => path.join(dir, file))
    .filter((file) => statSync(file).isFile())
}

/**
 * Sizes of the built mini-program's packages as WeChat counts them: every file under a subpackage's
 * root belongs to it, everything else to the main package.
 */
export function weappPackageSizes(dir = WEAPP_DIR): PackageSize[] {
  const appJson = JSON.parse(readFileSync(path.join(dir, 'app.json'), 'utf8')) as {
    subPackages?: { root: string }[]
  }
  const roots = (appJson.subPackages ?? []).map((sub) => sub.root.replace(/\/$/, ''))
  const sizes = new Map<string, PackageSize>([['(主包)', { name: '(主包)', bytes: 0, files: 0 }]])
  for (const root of roots) sizes.set(root, { name: root, bytes: 0, files: 0 })
  for (const file of walk(dir)) {
    const relative = path.relative(dir, file).split(path.sep).join('/')
    if (relative === 'project.config.json' || relative.endsWith('.LICENSE.txt')) continue
    const root = roots.find((r) => relative.startsWith(`${r}/`)) ?? '(主包)'
    const entry = sizes.get(root)!
    entry.bytes += statSync(file).size
    entry.files += 1
  }
  return [...sizes.values()]
}

export interface InitialJs {
  files: { url: string; bytes: number; gzipBytes: number }[]
  gzipBytes: number
  bytes: number
  /** Time from navigation to the first paint of real content in Chromium, ms. */
  contentMs: number
}

/** The JavaScript a phone downloads to show `path` of the built H5 app, measured in Chromium. */
export async function h5InitialJs(pagePath = '/'): Promise<InitialJs> {
  const server = await startServer({ WEB_ROOT: H5_DIR })
  const browser = await launchChromium()
  try {
    const context = await newPhone(browser)
    const page = await context.newPage()
    const files: InitialJs['files'] = []
    page.on('response', async (response) => {
      const url = response.url()
      if (!url.startsWith(server.url) || !/\.js(\?|$)/.test(new URL(url).pathname)) return
      const body = await response.body().catch(() => Buffer.alloc(0))
      files.push({
        url: new URL(url).pathname,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
      })
    })
    const started = Date.now()
    await page.goto(`${server.url}${pagePath}`, { waitUntil: 'load' })
    await page.waitForSelector('.taro_page', { timeout: 30_000 })
    const contentMs = Date.now() - started
    await page.waitForLoadState('networkidle')
    await context.close()
    return {
      files,
      bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      gzipBytes: files.reduce((sum, f) => sum + f.gzipBytes, 0),
      contentMs,
    }
  } finally {
    await browser.close()
    await server.close()
  }
}

export const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
