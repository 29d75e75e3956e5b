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

/** Every query value of a page decoded once (see decodeParam); absent values stay absent. */
export function decodeParams(
  params: Readonly<Partial<Record<string, string>>>,
): Partial<Record<string, string>> {
  const decoded: Partial<Record<string, string>> = {}
  for (const [key, value] of Object.entries(params)) {
    decoded[key] = value === undefined ? undefined : decodeParam(value)
  }
  return decoded
}
