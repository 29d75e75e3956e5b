import type { TermSpan } from '@/services/knowledge'

/** A run of the text: plain, or one term to underline. */
export interface Segment {
  text: string
  /** Set on a term. */
  termId?: string
  /** Where the run starts in the text (a stable React key). */
  start: number
}

/**
 * Cuts `text` at the server's spans. A span out of range, overlapping an earlier one, or one whose
 * term the answer lacks is dropped (its words stay as plain text): the text is always shown whole.
 */
export function segmentText(
  text: string,
  spans: readonly TermSpan[],
  known: (termId: string) => boolean = () => true,
): Segment[] {
  const segments: Segment[] = []
  let at = 0
  const sorted = [...spans].sort((a, b) => a.start - b.start)
  for (const { start, end, termId } of sorted) {
    if (!Number.isInteger(start) || !Number.isInteger(end)) continue
    if (start < at || end <= start || end > text.length || !known(termId)) continue
    if (start > at) segments.push({ text: text.slice(at, start), start: at })
    segments.push({ text: text.slice(start, end), termId, start })
    at = end
  }
  if (at < text.length) segments.push({ text: text.slice(at), start: at })
  return segments
}
