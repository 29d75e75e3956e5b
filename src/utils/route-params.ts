/**
 * A page's query value as written: Taro hands them over still percent-encoded (in H5 and in the
 * mini-program), and a malformed one (a hand-edited link) must not crash the page.
 */
export function decodeParam(value: string | undefined): string {
  if (!value) return ''
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}
