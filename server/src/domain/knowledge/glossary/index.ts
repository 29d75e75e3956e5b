import { ABDOMEN } from './abdomen'
import { CHEST } from './chest'
import { GENERAL } from './general'
import { NEURO } from './neuro'
import { SPINE } from './spine'
import type { GlossaryEntry } from './types'

export type { GlossaryEntry } from './types'

/** The whole glossary, by body system (REVIEW.md says how it was written and checked). */
export const GLOSSARY: readonly GlossaryEntry[] = [
  ...CHEST,
  ...NEURO,
  ...SPINE,
  ...ABDOMEN,
  ...GENERAL,
]
