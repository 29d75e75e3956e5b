import { Parser } from 'htmlparser2'
import { ARTICLE_ATTRIBUTES, ARTICLE_TAGS } from '@contract/main/content'

/*
 * The article allow-list (contract ARTICLE_TAGS / ARTICLE_ATTRIBUTES). Operators paste HTML from
 * editors; what reaches a reader's phone is rebuilt from a parse, never passed through: only listed
 * tags with listed attributes, every text and attribute value escaped again, img sources only our
 * own /media files or https, links only http(s) or our own paths. What was dropped is reported so
 * the operator sees it (nothing vanishes silently).
 */

const ALLOWED = new Set<string>(ARTICLE_TAGS)
const VOID = new Set(['br', 'img'])
/** Dropped with everything inside: their content is code or chrome, never article text. */
const DROP_WITH_CONTENT = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'noscript',
  'template',
  'svg',
  'math',
  'textarea',
  'select',
  'title',
  'head',
  'frameset',
  'frame',
  'applet',
  'xmp',
  'noembed',
  'noframes',
])
/** Tags whose end starts a new line in the plain text (the search index and the summary). */
const BLOCK = new Set(['p', 'br', 'h2', 'h3', 'li', 'blockquote', 'tr', 'td', 'th', 'table'])

export interface SanitisedArticle {
  html: string
  /** The readable text, for search and a summary. */
  plainText: string
  /** What was removed, e.g. `<script>`, `<div>`, `img[onerror]`, `a[href=javascript:…]`. */
  removed: string[]
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

/** Control characters and spaces browsers ignore inside a scheme (`java\tscript:`). */
// eslint-disable-next-line no-control-regex
const IGNORED_IN_URL = /[\u0000-\u0020\u007f-\u009f]/g

/** img src: our own media (`/media/<id>`) or an https address. */
export function isSafeImageSource(value: string): boolean {
  const src = value.replace(IGNORED_IN_URL, '')
  if (/^\/media\/[A-Za-z0-9_-]+$/.test(src)) return true
  return isUrlWithScheme(src, ['https:'])
}

/** a href: http(s) addresses or our own absolute paths (`/pages/…`), never `//host` or a scheme. */
export function isSafeLink(value: string): boolean {
  const href = value.replace(IGNORED_IN_URL, '')
  if (href.startsWith('/') && !href.startsWith('//') && !href.includes('\\')) return true
  return isUrlWithScheme(href, ['https:', 'http:'])
}

function isUrlWithScheme(value: string, schemes: string[]): boolean {
  try {
    const url = new URL(value)
    return schemes.includes(url.protocol) && url.hostname !== ''
  } catch {
    return false
  }
}

function keepAttribute(tag: string, name: string, value: string): boolean {
  if (!(ARTICLE_ATTRIBUTES[tag] ?? []).includes(name)) return false
  if (tag === 'img' && name === 'src') return isSafeImageSource(value)
  if (tag === 'a' && name === 'href') return isSafeLink(value)
  if (name === 'width' || name === 'height') return /^\d{1,4}$/.test(value)
  return value.length <= 200
}

export function sanitiseArticleHtml(input: string): SanitisedArticle {
  const out: string[] = []
  const text: string[] = []
  const removed = new Set<string>()
  const open: string[] = []
  let skipping = 0

  const parser = new Parser(
    {
      onopentag(name, attributes) {
        // htmlparser2 closes void elements itself, so every open inside a dropped element has a close.
        if (skipping > 0 || DROP_WITH_CONTENT.has(name)) {
          skipping += 1
          removed.add(`<${name}>`)
          return
        }
        if (!ALLOWED.has(name)) {
          removed.add(`<${name}>`)
          return
        }
        let tag = `<${name}`
        for (const [attribute, value] of Object.entries(attributes)) {
          if (keepAttribute(name, attribute, value)) {
            tag += ` ${attribute}="${escapeAttribute(value)}"`
          } else {
            const shown = value.length > 24 ? `${value.slice(0, 24)}…` : value
            removed.add(
              (ARTICLE_ATTRIBUTES[name] ?? []).includes(attribute)
                ? `${name}[${attribute}=${shown}]`
                : `${name}[${attribute}]`,
            )
          }
        }
        // An image must say where it comes from; one whose source was refused is dropped whole.
        if (name === 'img' && !tag.includes(' src="')) return
        out.push(`${tag}>`)
        if (!VOID.has(name)) open.push(name)
        if (name === 'br') text.push('\n')
      },
      ontext(data) {
        if (skipping > 0) return
        out.push(escapeText(data))
        text.push(data)
      },
      onclosetag(name) {
        if (skipping > 0) {
          skipping -= 1
          return
        }
        if (!ALLOWED.has(name) || VOID.has(name)) return
        const at = open.lastIndexOf(name)
        if (at < 0) return
        // Close whatever was left open inside it, so the output is always balanced.
        while (open.length > at) out.push(`</${open.pop()!}>`)
        if (BLOCK.has(name)) text.push('\n')
      },
      oncomment() {
        removed.add('<!-- -->')
      },
      onprocessinginstruction(name) {
        removed.add(`<${name}>`)
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(input)
  parser.end()
  while (open.length > 0) out.push(`</${open.pop()!}>`)

  const plainText = text
    .join('')
    .replace(/[ \t\u00a0]+/g, ' ')
    .replace(/\s*\n\s*/g, '\n')
    .trim()
  return { html: out.join(''), plainText, removed: [...removed] }
}
