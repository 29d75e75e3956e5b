import { Text } from '@tarojs/components'
import { Fragment, useState } from 'react'
import type { GlossaryTerm } from '@/services/knowledge'
import { segmentText } from './segments'
import { TermSheet } from './term-sheet'
import { useTextAnalysis } from './use-text-analysis'
import './index.scss'

export interface ExplainedTextProps {
  /** The text as written (a report's 影像所见, an expert's opinion). */
  text: string
  /** The outer text's class: its font, colour and `white-space`. */
  className?: string
}

/**
 * A text with the glossary's terms underlined; a tap on one opens its plain explanation (通俗解释).
 * The server finds the terms (one request per text, kept in memory); until it answers, or if it
 * fails, or when nobody is signed in, the text is shown plain, never an error in its place.
 */
export function ExplainedText({ text, className }: ExplainedTextProps) {
  const analysis = useTextAnalysis(text)
  const [term, setTerm] = useState<GlossaryTerm | null>(null)
  const [open, setOpen] = useState(false)
  const terms = analysis?.terms ?? {}
  const segments = analysis ? segmentText(text, analysis.spans, (id) => id in terms) : null

  const explain = (termId: string) => {
    setTerm(terms[termId]!)
    setOpen(true)
  }

  return (
    <>
      <Text className={['explained-text', className].filter(Boolean).join(' ')}>
        {segments
          ? segments.map((segment) =>
              segment.termId ? (
                <Text
                  key={segment.start}
                  className="explained-text__term"
                  onClick={() => explain(segment.termId!)}
                >
                  {segment.text}
                </Text>
              ) : (
                <Fragment key={segment.start}>{segment.text}</Fragment>
              ),
            )
          : text}
      </Text>
      {term && <TermSheet term={term} visible={open} onClose={() => setOpen(false)} />}
    </>
  )
}
