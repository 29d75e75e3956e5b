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
 * Article HTML as the reader's phone shows it: our /media images get the API origin (the
 * mini-program's RichText has no base address) and every image fits the screen width.
 */
export function articleHtmlForDevice(html: string): string {
  return html
    .replace(
      /<img src="(\/media\/[A-Za-z0-9_-]+)"/g,
      (_match, path: string) => `<img src="${mediaUrl(path)}"`,
    )
    .replace(/<img /g, '<img style="max-width:100%;height:auto;display:block;margin:12px 0" ')
}
