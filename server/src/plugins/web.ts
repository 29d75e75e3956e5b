import { existsSync, readFileSync, statSync } from 'node:fs'
import path from 'node:path'
import fastifyStatic from '@fastify/static'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { fullPath } from '@contract/endpoint'
import { SERVICES } from '@contract/services'
import { getHealth } from '@contract/system/health'
import { failure } from '../http/envelope'
import { API_DOCS_PREFIX } from './api-docs'
import { pageCsp } from './security'

/** Paths that belong to the API: never answered with the H5 app, unknown ones get a JSON 404. */
export const API_PREFIXES: readonly string[] = [
  ...Object.values(SERVICES).filter((prefix) => prefix !== ''),
  fullPath(getHealth),
  '/openapi.json',
  API_DOCS_PREFIX,
  // Uploaded files (routes/main/upload.ts): a missing one is a 404, never the H5 app.
  '/uploads',
  // Standards endpoints for hospital systems and viewers: an unknown path there is a 404 too.
  '/dicomweb',
  '/fhir',
]

export function isApiPath(url: string): boolean {
  const pathname = url.split('?')[0]!
  return API_PREFIXES.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`))
}

// Taro names these with a content hash (config/index.ts), so they can be cached for good.
const HASHED_DIRS = new Set(['js', 'css', 'static'])
const LONG_CACHE = 'public, max-age=31536000, immutable'
/** The formats the build compresses (config/h5-plugins.ts writes a .br and a .gz beside each). */
const COMPRESSIBLE = /\.(js|css|html|svg|json)(\.br|\.gz)?$/

const NOT_BUILT_HTML = `<!doctype html>
<html lang="zh-CN"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>医影通</title></head>
<body style="font-family:sans-serif;padding:24px;color:#333">
<h1 style="font-size:20px">医影通 H5 应用尚未构建</h1>
<p>接口服务已经在运行。请先执行 <code>npm run build:h5</code>（或直接 <code>npm start</code>，它会自动构建），然后刷新本页。</p>
<p>接口文档：<a href="${API_DOCS_PREFIX}">${API_DOCS_PREFIX}</a></p>
</body></html>
`

/** The not-built note has inline styles only. */
const NOT_BUILT_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"

/** Written by the build (config/h5-plugins.ts): the API origins the app was built to call. */
const BUILD_META = '.build-meta.json'

/**
 * The policy for index.html, from the file itself (hashes of its inline scripts) and the build's meta
 * data; recomputed when index.html changes, so a deploy into the same folder needs no restart.
 */
function pagePolicy(webRoot: string): () => string {
  let cached: { mtimeMs: number; csp: string } | undefined
  return () => {
    const index = path.join(webRoot, 'index.html')
    const { mtimeMs } = statSync(index)
    if (cached?.mtimeMs === mtimeMs) return cached.csp
    let connectSrc: string[] = []
    try {
      const meta = JSON.parse(readFileSync(path.join(webRoot, BUILD_META), 'utf8')) as {
        connectSrc?: unknown
      }
      if (Array.isArray(meta.connectSrc))
        connectSrc = meta.connectSrc.filter((origin): origin is string =>
          /^https?:\/\/[^\s;,']+$/.test(String(origin)),
        )
    } catch {
      // An older build or a hand-made folder: the app calls its own origin only.
    }
    cached = { mtimeMs, csp: pageCsp(readFileSync(index, 'utf8'), connectSrc) }
    return cached.csp
  }
}

function webRootReady(webRoot: string): boolean {
  try {
    return statSync(webRoot).isDirectory() && existsSync(path.join(webRoot, 'index.html'))
  } catch {
    return false
  }
}

/** A browser navigation to a client-side route: GET/HEAD, wants HTML, and names no file. */
function isAppNavigation(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false
  if (isApiPath(request.url)) return false
  if (!(request.headers.accept ?? '').includes('text/html')) return false
  const last = request.url.split('?')[0]!.split('/').pop() ?? ''
  return !last.includes('.') || last.endsWith('.html')
}

/** Whether `file` (relative, from the URL) is a file inside `root`. */
function isFileIn(root: string, file: string): boolean {
  const base = path.resolve(root)
  const full = path.resolve(base, file)
  if (!full.startsWith(base + path.sep)) return false
  try {
    return statSync(full).isFile()
  } catch {
    return false
  }
}

/** index.html, revalidated on every visit (a deploy changes it). Not awaited: see the route. */
function sendApp(reply: FastifyReply, csp: string): void {
  void reply
    .header('cache-control', 'no-cache')
    .header('content-security-policy', csp)
    .sendFile('index.html')
}

/**
 * Serves the built H5 app from WEB_ROOT with history-routing fallback, and answers every unknown path
 * that is not such a navigation (unknown API paths included) with the JSON 404 envelope.
 */
export async function registerWeb(app: FastifyInstance, webRoot: string): Promise<void> {
  const ready = webRootReady(webRoot)

  const csp = pagePolicy(webRoot)
  if (ready) {
    await app.register(fastifyStatic, {
      root: webRoot,
      // Our own route below serves the files; the plugin gives reply.sendFile.
      serve: false,
      index: ['index.html'],
      // The build's stamp and meta data (.source-hash, .build-meta.json) are not for browsers.
      dotfiles: 'ignore',
      // app.js.br / app.js.gz made at build time, chosen by Accept-Encoding; the file itself otherwise.
      preCompressed: true,
      // Cache headers are ours: hashed assets forever, everything else revalidated (a new deploy
      // changes index.html, which then points at new hashed names).
      cacheControl: false,
      setHeaders(res, filePath) {
        const first = path.relative(webRoot, filePath).split(path.sep)[0] ?? ''
        res.setHeader('cache-control', HASHED_DIRS.has(first) ? LONG_CACHE : 'no-cache')
        // Caches keep the brotli, gzip and plain answers of one URL apart.
        if (COMPRESSIBLE.test(filePath)) res.setHeader('vary', 'accept-encoding')
      },
    })
    // Files are sent as built: the compression plugin stays off this route, so a file without a
    // smaller variant is not compressed again on every request.
    app.route({
      method: ['GET', 'HEAD'],
      url: '/*',
      compress: false,
      schema: { hide: true },
      // Nothing is returned or awaited here: a Fastify reply is a thenable, and each await on it adds
      // two 'close' listeners to the response (MaxListenersExceededWarning once they pass 10).
      handler: (request: FastifyRequest<{ Params: { '*': string } }>, reply) => {
        const file = request.params['*'] || 'index.html'
        // A page address (history routing) names no file: index.html at once, instead of looking for
        // the page as .br, .gz and as is before the not-found handler sends it.
        if (file === 'index.html' || (isAppNavigation(request) && !isFileIn(webRoot, file))) {
          sendApp(reply, csp())
          return
        }
        void reply.sendFile(file)
      },
    })
  } else {
    app.get('/', { schema: { hide: true } }, async (_request, reply) =>
      reply
        .header('content-security-policy', NOT_BUILT_CSP)
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT_HTML),
    )
  }

  app.setNotFoundHandler(async (request: FastifyRequest, reply: FastifyReply) => {
    if (isAppNavigation(request)) {
      if (ready) {
        sendApp(reply, csp())
        return
      }
      return reply
        .code(404)
        .header('content-security-policy', NOT_BUILT_CSP)
        .type('text/html; charset=utf-8')
        .send(NOT_BUILT_HTML)
    }
    const message = isApiPath(request.url) ? '接口不存在，请检查地址' : '请求的资源不存在'
    return reply.code(404).send(failure(404, message))
  })
}
