/**
 * `npm run bench:knowledge`: how long the knowledge analysis (issue 23, 通俗解释) takes for a
 * 2,000-character report: the glossary's automaton built once, then the same report matched many
 * times (spans, and the explanations of the terms found). In-process, without HTTP. Prints
 * figures; the budget (median ≤ 5 ms) is checked in scripts/check-budgets.ts.
 */
import { performance } from 'node:perf_hooks'
import { GLOSSARY } from '../server/src/domain/knowledge/glossary'
import { analyseText, glossaryMatcher } from '../server/src/domain/knowledge/knowledge'

export const KNOWLEDGE_REPORT_CHARS = 2000

/**
 * A chest CT and spine MR report as hospitals write them, dense with glossary terms (more than a
 * real one has), repeated to the length.
 */
const SENTENCES = [
  '胸廓对称，气管居中，各叶段支气管通畅。右肺上叶后段见一部分实性结节，大小约 8 mm × 7 mm，边界清楚，可见浅分叶及短毛刺，邻近胸膜牵拉。',
  '左肺下叶见磨玻璃结节（GGO），直径约 5 mm。两肺散在条索影及纤维灶，右肺中叶见钙化灶。余两肺野未见实变及磨玻璃影。',
  '纵隔内未见肿大淋巴结，心影大小、形态正常，主动脉壁钙化，冠状动脉钙化。双侧胸腔未见积液，胸膜增厚。',
  '所见骨质未见破坏。腰椎生理曲度变直，L4/5 椎间盘突出，L5/S1 椎间盘膨出，继发椎管狭窄，黄韧带肥厚，椎体边缘骨质增生。',
  '肝实质内见多发小囊肿，胆囊结石，双肾囊肿。脑白质病变，双侧基底节区腔隙性脑梗死（腔梗），请结合临床，建议随访。',
]

export function benchReport(chars = KNOWLEDGE_REPORT_CHARS): string {
  let text = ''
  for (let i = 0; text.length < chars; i += 1) text += SENTENCES[i % SENTENCES.length]
  return text.slice(0, chars)
}

export interface KnowledgeFigures {
  entries: number
  keys: number
  buildMs: number
  chars: number
  spans: number
  terms: number
  runs: number
  medianMs: number
  p99Ms: number
  maxMs: number
}

export function measureKnowledge(runs = 5000): KnowledgeFigures {
  const t0 = performance.now()
  const keys = glossaryMatcher().size
  const buildMs = performance.now() - t0
  const text = benchReport()
  for (let i = 0; i < 200; i += 1) analyseText(text)
  const times: number[] = []
  let answer = analyseText(text)
  for (let i = 0; i < runs; i += 1) {
    const start = performance.now()
    answer = analyseText(text)
    times.push(performance.now() - start)
  }
  times.sort((a, b) => a - b)
  const at = (p: number) => times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))]!
  return {
    entries: GLOSSARY.length,
    keys,
    buildMs,
    chars: text.length,
    spans: answer.spans.length,
    terms: Object.keys(answer.terms).length,
    runs,
    medianMs: at(50),
    p99Ms: at(99),
    maxMs: times[times.length - 1]!,
  }
}

export function describeKnowledge(f: KnowledgeFigures): string {
  return [
    `glossary: ${f.entries} entries, ${f.keys} terms and aliases; automaton built in ${f.buildMs.toFixed(1)} ms (once)`,
    `analysis of a ${f.chars}-character report (${f.spans} spans, ${f.terms} terms), ${f.runs} runs:`,
    `  median ${f.medianMs.toFixed(3)} ms  p99 ${f.p99Ms.toFixed(3)} ms  max ${f.maxMs.toFixed(3)} ms`,
  ].join('\n')
}

if (require.main === module) console.log(describeKnowledge(measureKnowledge()))
