/*
 * Highlight runs (contract HighlightSchema): the text cut where the query matches, so the app bolds
 * the matches without any HTML. Case-insensitive for Latin letters (CT matches ct), like the search.
 */

export type Runs = [string, boolean][]

export function highlightRuns(text: string, q: string): Runs {
  if (q === '') return text ? [[text, false]] : []
  const runs: Runs = []
  const lower = text.toLowerCase()
  const needle = q.toLowerCase()
  let at = 0
  for (;;) {
    const found = lower.indexOf(needle, at)
    if (found < 0) break
    if (found > at) runs.push([text.slice(at, found), false])
    runs.push([text.slice(found, found + q.length), true])
    at = found + q.length
  }
  if (at < text.length) runs.push([text.slice(at), false])
  return runs
}

/** About `width` characters of `text` around the first match, with … where it was cut. */
export function snippetAround(text: string, q: string, width = 40): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  const found = flat.toLowerCase().indexOf(q.toLowerCase())
  if (found < 0 || flat.length <= width)
    return flat.length <= width ? flat : `${flat.slice(0, width)}…`
  const start = Math.max(
    0,
    Math.min(found - Math.floor((width - q.length) / 3), flat.length - width),
  )
  const end = Math.min(flat.length, start + width)
  return `${start > 0 ? '…' : ''}${flat.slice(start, end)}${end < flat.length ? '…' : ''}`
}
