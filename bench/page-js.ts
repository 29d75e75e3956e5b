/**
 * What a page costs in JavaScript once the home is open (issue 19): the brotli bytes of the script
 * files a page needs that the home has not already loaded, as the server sends them (`.br`). Each
 * page is opened in Chromium as the signed-in demo patient, after the home, against the real server
 * (demo mode, its own records) serving the build: the files it asks for, less the home's.
 *
 * `npm run bench` prints it; `npx tsx bench/page-js.ts` runs it alone, on dist/h5 or on WEB_ROOT
 * (to compare another build, e.g. one of an older commit).
 */
import { existsSync, statSync } from 'node:fs'
import path from 'node:path'
import type { Browser } from 'playwright-core'
import { launchChromium, newPhone } from '../scripts/lib/browser'
import { kb } from '../scripts/lib/sizes'
import { ROUTES, type RouteName } from '../src/routes'
import { DEMO_PATIENT, demoLoginRequest, startBenchServer } from './server'

const ROOT = path.resolve(__dirname, '..')

/** The pages the issue names: opened from the home, they should reuse what it loaded. */
export const PAGES_AFTER_HOME: readonly { route: RouteName; query?: 'examId' }[] = [
  { route: 'infoList' },
  { route: 'personalReport' },
  { route: 'imageDetail', query: 'examId' },
]

export interface PageJs {
  title: string
  path: string
  /** The page's script files the home had not loaded, with their bytes as sent (brotli). */
  files: { file: string; bytes: number }[]
  bytes: number
}

export interface PageJsFigures {
  /** What the home itself loaded (brotli). */
  home: { files: number; bytes: number }
  pages: PageJs[]
}

interface Session {
  access_token: string
  token_type: string
  expires_in: number
  refresh_token: string
  user: { nickname: string; mobileMasked?: string }
}

/** The app's persisted stores of a signed-in patient, as Taro's H5 storage keeps them. */
function storedSession(session: Session): Record<string, string> {
  const token = {
    access_token: session.access_token,
    token_type: session.token_type,
    expires_in: session.expires_in,
    refresh_token: session.refresh_token,
  }
  const userName = session.user.nickname.trim() || session.user.mobileMasked || '用户'
  const wrap = (state: unknown, version: number) =>
    JSON.stringify({ data: JSON.stringify({ state, version }) })
  return {
    'yx-session': wrap({ token }, 1),
    'yx-app': wrap({ hasLogin: true, userName, profile: session.user }, 2),
  }
}

/** The first exam of the demo patient, once the server has pushed the demo records. */
async function firstExamId(url: string, token: string): Promise<string> {
  const deadline = Date.now() + 120_000
  for (;;) {
    const response = await fetch(`${url}/main/images`, {
      headers: { authorization: `Bearer ${token}` },
    })
    const body = (await response.json()) as { data: { latest: { id: string }[] }[] | null }
    const exam = (body.data ?? []).flatMap((group) => group.latest)[0]
    if (exam) return exam.id
    if (Date.now() > deadline) throw new Error('演示患者两分钟内仍没有检查（demo records missing）')
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
}

/** The script files `address` loads on `url`'s app, from a new phone with `storage` set. */
async function scriptsOf(
  browser: Browser,
  url: string,
  addresses: string[],
  storage: Record<string, string>,
): Promise<Set<string>[]> {
  const context = await newPhone(browser)
  try {
    await context.addInitScript((items) => {
      for (const [key, value] of Object.entries(items)) localStorage.setItem(key, value)
    }, storage)
    const page = await context.newPage()
    let loaded = new Set<string>()
    page.on('request', (request) => {
      const address = new URL(request.url())
      if (address.origin === url && address.pathname.endsWith('.js'))
        loaded.add(address.pathname.slice(1))
    })
    const sets: Set<string>[] = []
    for (const address of addresses) {
      loaded = new Set()
      await page.goto(`${url}${address}`, { waitUntil: 'load' })
      await page.waitForSelector('.taro_page', { timeout: 60_000 })
      await page.waitForLoadState('networkidle')
      sets.push(loaded)
    }
    return sets
  } finally {
    await context.close()
  }
}

export async function measurePageJs(webRoot = defaultWebRoot()): Promise<PageJsFigures> {
  const bytesOf = (file: string) => {
    const br = path.join(webRoot, `${file}.br`)
    return statSync(existsSync(br) ? br : path.join(webRoot, file)).size
  }
  const server = await startBenchServer({ WEB_ROOT: webRoot })
  const browser = await launchChromium()
  try {
    const response = await fetch(`${server.url}/sso/oauth2/token`, demoLoginRequest)
    const { data: session } = (await response.json()) as { data: Session | null }
    if (!session) throw new Error(`演示患者 ${DEMO_PATIENT} 登录失败（${response.status}）`)
    const examId = await firstExamId(server.url, session.access_token)
    const storage = storedSession(session)

    let home = new Set<string>()
    const pages: PageJs[] = []
    for (const { route, query } of PAGES_AFTER_HOME) {
      const def = ROUTES.find((candidate) => candidate.name === route)!
      const address = `/${def.path}${query ? `?id=${examId}` : ''}`
      // The home again in each phone: every page is opened from a freshly opened home.
      const [homeFiles, pageFiles] = await scriptsOf(browser, server.url, ['/', address], storage)
      home = homeFiles!
      const files = [...pageFiles!]
        .filter((file) => !home.has(file))
        .sort()
        .map((file) => ({ file, bytes: bytesOf(file) }))
      pages.push({
        title: def.title,
        path: def.path,
        files,
        bytes: files.reduce((sum, f) => sum + f.bytes, 0),
      })
    }
    const homeBytes = [...home].reduce((sum, file) => sum + bytesOf(file), 0)
    return { home: { files: home.size, bytes: homeBytes }, pages }
  } finally {
    await browser.close()
    await server.stop()
  }
}

function defaultWebRoot(): string {
  return path.resolve(ROOT, process.env.WEB_ROOT ?? path.join('dist', 'h5'))
}

export function describePageJs(figures: PageJsFigures): string {
  const lines = [
    `| H5 JavaScript a page adds after the home (brotli; the home itself ${kb(figures.home.bytes)} in ${figures.home.files} files) | new JS | files |`,
    '|---|---:|---:|',
  ]
  for (const page of figures.pages)
    lines.push(`| ${page.title} (${page.path}) | ${kb(page.bytes)} | ${page.files.length} |`)
  return lines.join('\n')
}

if (require.main === module) {
  measurePageJs().then(
    (figures) => {
      console.log(describePageJs(figures))
      if (process.env.PAGE_JS_FILES === '1')
        for (const page of figures.pages)
          for (const file of page.files)
            console.log(`  ${page.title} ${file.file} ${kb(file.bytes)}`)
      process.exit(0)
    },
    (error: unknown) => {
      console.error(error)
      process.exit(1)
    },
  )
}
