import { useEffect, useState } from 'react'
import { analyseText, KNOWLEDGE_TEXT_MAX, type TextAnalysis } from '@/services/knowledge'
import { useAppStore } from '@/stores/app-store'

/** Answers kept for this many texts (a report page holds two; a consultation a few opinions). */
const CACHE_SIZE = 50

/** One request per text for the app's life: the same report opened again asks nothing. */
const cache = new Map<string, Promise<TextAnalysis>>()

function analysisOf(text: string): Promise<TextAnalysis> {
  const cached = cache.get(text)
  if (cached) {
    // Most recently used last, so the oldest goes first when the cache is full.
    cache.delete(text)
    cache.set(text, cached)
    return cached
  }
  const asked = analyseText(text)
  cache.set(text, asked)
  // A failure is not kept: the next time the text is shown it is asked again.
  asked.catch(() => cache.delete(text))
  while (cache.size > CACHE_SIZE) cache.delete(cache.keys().next().value!)
  return asked
}

/** For tests: forget every answer. */
export function clearTextAnalyses(): void {
  cache.clear()
}

/**
 * The glossary's terms in `text`, or null while asking, when it failed, when nobody is signed in
 * (the call needs a login) or when there is nothing to ask about. Never an error: the text is
 * shown plain until (unless) the answer comes.
 */
export function useTextAnalysis(text: string): TextAnalysis | null {
  const hasLogin = useAppStore((state) => state.hasLogin)
  const askable = hasLogin && text.trim() !== '' && text.length <= KNOWLEDGE_TEXT_MAX
  const [answer, setAnswer] = useState<{ text: string; analysis: TextAnalysis } | null>(null)
  useEffect(() => {
    if (!askable) return
    let current = true
    analysisOf(text).then(
      (analysis) => {
        if (current) setAnswer({ text, analysis })
      },
      () => undefined,
    )
    return () => {
      current = false
    }
  }, [askable, text])
  return askable && answer?.text === text ? answer.analysis : null
}
