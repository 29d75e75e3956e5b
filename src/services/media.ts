import { THEME } from '@/theme'
import { apiOrigin } from './hosts'

/**
 * The full address of a public media path the server names (`/media/<id>`: covers, posters,
 * videos, icons). H5 is served by the same server, so the path alone works there; the
 * mini-program needs the API origin in front.
 */
export function mediaUrl(path: string): string {
  return /^https?:\/\//.test(path) ? path : `${apiOrigin()}${path}`
}

/**
 * How the article's tags look on a phone. Inline, because the mini-program's RichText takes no
 * page stylesheet for its nodes, and the server's sanitised HTML carries no style of its own.
 */
const TAG_STYLES: Record<string, string> = {
  h2: 'font-size:18px;font-weight:700;line-height:1.5;margin:20px 0 8px',
  h3: 'font-size:16px;font-weight:700;line-height:1.5;margin:16px 0 6px',
  p: 'margin:0 0 12px',
  ul: 'margin:0 0 12px;padding-left:20px',
  ol: 'margin:0 0 12px;padding-left:20px',
  li: 'margin:0 0 6px',
  blockquote: `margin:0 0 12px;padding:8px 12px;border-left:3px solid ${THEME.primary};background:${THEME.pageBackground}`,
  table: 'width:100%;border-collapse:collapse;margin:0 0 12px;font-size:14px',
  th: 'border:1px solid #e5e7eb;padding:6px;background:#f9fafb',
  td: 'border:1px solid #e5e7eb;padding:6px',
  img: 'max-width:100%;height:auto;display:block;margin:12px 0',
}

/**
 * Article HTML as the reader's phone shows it: our /media images get the API origin (the
 * mini-program's RichText has no base address), every image fits the screen, and each tag gets
 * its style (TAG_STYLES). The input is the server's sanitised HTML: tags carry no style already.
 */
export function articleHtmlForDevice(html: string): string {
  return html
    .replace(
      /<img src="(\/media\/[A-Za-z0-9_-]+)"/g,
      (_match, path: string) => `<img src="${mediaUrl(path)}"`,
    )
    .replace(
      /<(h2|h3|p|ul|ol|li|blockquote|table|th|td|img)([ >])/g,
      (_match, tag: string, next: string) => `<${tag} style="${TAG_STYLES[tag]}"${next}`,
    )
}
