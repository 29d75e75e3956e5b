/*
 * Finds glossary terms in a text: an Aho-Corasick automaton over every term and alias, built once,
 * then one pass over the text. Where found terms overlap, the longest wins (磨玻璃结节 over 结节,
 * 部分实性结节 over 实性结节); ties go to the earlier one. Spans are in UTF-16 code units, as
 * JavaScript strings index them. Matching folds only ASCII and full-width Latin letters and digits
 * (one code unit each), so positions in the folded text are positions in the text; a Latin key
 * (GGO, DWI) must not run on into other Latin letters or digits (GGO in "GGOX" is not a match).
 * Keys hold no lone surrogate (checked when built), so no span can split a surrogate pair.
 */

export interface MatcherKey {
  /** What the span reports. */
  id: string
  /** The term and its aliases. */
  keys: readonly string[]
}

export interface Span {
  start: number
  end: number
  id: string
}

export interface Matcher {
  match: (text: string) => Span[]
  /** How many distinct keys the automaton holds. */
  size: number
}

/** a-z for A-Z and full-width Ａ-Ｚ ａ-ｚ; 0-9 for full-width ０-９; anything else as it is. */
export function foldUnit(code: number): number {
  if (code >= 0x41 && code <= 0x5a) return code + 0x20
  if (code < 0xff10 || code > 0xff5a) return code
  if (code <= 0xff19) return code - 0xff10 + 0x30
  if (code >= 0xff21 && code <= 0xff3a) return code - 0xff21 + 0x61
  if (code >= 0xff41) return code - 0xff41 + 0x61
  return code
}

const isWordUnit = (code: number) =>
  (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39)

function hasLoneSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i)
    if (code >= 0xd800 && code <= 0xdbff) {
      const next = text.charCodeAt(i + 1)
      if (!(next >= 0xdc00 && next <= 0xdfff)) return true
      i += 1
    } else if (code >= 0xdc00 && code <= 0xdfff) return true
  }
  return false
}

interface Pattern {
  id: string
  length: number
  /** Starts or ends with a Latin letter or digit: needs a boundary there. */
  wordStart: boolean
  wordEnd: boolean
}

/** Throws on an empty key, a lone surrogate, or one key claimed by two ids. */
export function buildMatcher(entries: readonly MatcherKey[]): Matcher {
  const children: Map<number, number>[] = [new Map()]
  /** The pattern ending exactly at a node, or -1. */
  const output: number[] = [-1]
  const patterns: Pattern[] = []
  const owner = new Map<string, string>()

  for (const { id, keys } of entries) {
    for (const raw of keys) {
      const key = raw.trim()
      if (key === '' || hasLoneSurrogate(key))
        throw new Error(`glossary key unusable: ${id} "${raw}"`)
      const folded = Array.from({ length: key.length }, (_, i) => foldUnit(key.charCodeAt(i)))
      const name = String.fromCharCode(...folded)
      const claimed = owner.get(name)
      if (claimed !== undefined) {
        if (claimed === id) continue
        throw new Error(`glossary key "${key}" belongs to both ${claimed} and ${id}`)
      }
      owner.set(name, id)
      let node = 0
      for (const unit of folded) {
        let next = children[node]!.get(unit)
        if (next === undefined) {
          next = children.length
          children.push(new Map())
          output.push(-1)
          children[node]!.set(unit, next)
        }
        node = next
      }
      output[node] = patterns.length
      patterns.push({
        id,
        length: folded.length,
        wordStart: isWordUnit(folded[0]!),
        wordEnd: isWordUnit(folded[folded.length - 1]!),
      })
    }
  }

  // Failure links breadth first; `dict` skips to the nearest suffix node that ends a pattern.
  const fail = new Int32Array(children.length)
  const dict = new Int32Array(children.length).fill(-1)
  const queue: number[] = []
  for (const child of children[0]!.values()) queue.push(child)
  for (let head = 0; head < queue.length; head += 1) {
    const node = queue[head]!
    for (const [unit, child] of children[node]!) {
      let f = fail[node]!
      while (f !== 0 && !children[f]!.has(unit)) f = fail[f]!
      const target = children[f]!.get(unit)
      fail[child] = target !== undefined && target !== child ? target : 0
      dict[child] = output[fail[child]!]! >= 0 ? fail[child]! : dict[fail[child]!]!
      queue.push(child)
    }
  }

  function match(text: string): Span[] {
    const n = text.length
    if (n === 0) return []
    const found: { start: number; end: number; pattern: number }[] = []
    const wordAt = (i: number) => i >= 0 && i < n && isWordUnit(foldUnit(text.charCodeAt(i)))
    let node = 0
    for (let i = 0; i < n; i += 1) {
      const unit = foldUnit(text.charCodeAt(i))
      let next = children[node]!.get(unit)
      while (next === undefined && node !== 0) {
        node = fail[node]!
        next = children[node]!.get(unit)
      }
      node = next ?? 0
      for (let at = output[node]! >= 0 ? node : dict[node]!; at >= 0; at = dict[at]!) {
        const pattern = patterns[output[at]!]!
        const start = i + 1 - pattern.length
        if (pattern.wordStart && wordAt(start - 1)) continue
        if (pattern.wordEnd && wordAt(i + 1)) continue
        found.push({ start, end: i + 1, pattern: output[at]! })
      }
    }
    if (found.length === 0) return []
    // Longest first, then leftmost; a span is kept when no kept span covers any of its units.
    found.sort((a, b) => b.end - b.start - (a.end - a.start) || a.start - b.start)
    const taken = new Uint8Array(n)
    const kept: Span[] = []
    for (const { start, end, pattern } of found) {
      let free = true
      for (let i = start; i < end && free; i += 1) free = taken[i] === 0
      if (!free) continue
      taken.fill(1, start, end)
      kept.push({ start, end, id: patterns[pattern]!.id })
    }
    return kept.sort((a, b) => a.start - b.start)
  }

  return { match, size: patterns.length }
}
