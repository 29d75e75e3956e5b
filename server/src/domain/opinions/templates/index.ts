import {
  type FieldValue,
  OPINION_FIELD_MAX,
  OPINION_MESSAGES,
  opinionSentences,
  type OpinionSentence,
  type OpinionValues,
  type ReportTemplate,
  type TemplateField,
  templateDefaults,
} from '@contract/main/opinions'
import { isSafeDisplayText } from '@contract/text'
import { badRequest } from '../../../http/errors'
import { BUILT_IN_TEMPLATES } from './catalogue'

export { BUILT_IN_TEMPLATES } from './catalogue'

const BY_ID = new Map(BUILT_IN_TEMPLATES.map((one) => [one.id, one]))

/** A built-in template by id; 400 when there is none (a stale app, a typed request). */
export function templateById(id: string): ReportTemplate {
  const found = BY_ID.get(id)
  if (!found) throw badRequest(OPINION_MESSAGES.templateUnknown)
  return found
}

export function fieldsOf(template: ReportTemplate): Map<string, TemplateField> {
  return new Map(template.sections.flatMap((section) => section.fields.map((f) => [f.id, f])))
}

/** What a new opinion on this template starts with (the contract's, shared with the app). */
export const defaultValues = templateDefaults

function isEmpty(value: FieldValue | undefined): boolean {
  return value === undefined || (Array.isArray(value) ? value.length === 0 : value.trim() === '')
}

const NUMBER = /^-?\d+(\.\d+)?$/

/**
 * Checks values against the template: every key a field of it, each value of the field's type and
 * within its options and lengths. `sign` also asks for every required field and a number where a
 * number is due; a draft may be incomplete (saved as the expert types). 400 with the first problem,
 * naming the field as the expert sees it.
 */
export function checkValues(
  template: ReportTemplate,
  values: OpinionValues,
  mode: 'draft' | 'sign',
): void {
  const fields = fieldsOf(template)
  for (const id of Object.keys(values)) {
    if (!fields.has(id)) throw badRequest(OPINION_MESSAGES.fieldUnknown)
  }
  for (const field of fields.values()) {
    const value = values[field.id]
    if (isEmpty(value)) {
      if (mode === 'sign' && field.required)
        throw badRequest(OPINION_MESSAGES.required(field.label))
      continue
    }
    const texts = Array.isArray(value) ? value : [value!]
    if (Array.isArray(value) !== (field.type === 'multi'))
      throw badRequest(OPINION_MESSAGES.notAnOption(field.label))
    for (const one of texts) {
      if (one.length > OPINION_FIELD_MAX) throw badRequest(OPINION_MESSAGES.tooLong(field.label))
      if (!isSafeDisplayText(one, { multiline: true }))
        throw badRequest(OPINION_MESSAGES.unsafe(field.label))
      if ((field.type === 'choice' || field.type === 'multi') && !field.options?.includes(one))
        throw badRequest(OPINION_MESSAGES.notAnOption(field.label))
    }
    if (field.type === 'multi' && new Set(texts).size !== texts.length)
      throw badRequest(OPINION_MESSAGES.notAnOption(field.label))
    if (field.type === 'number' && mode === 'sign' && !NUMBER.test(texts[0]!.trim()))
      throw badRequest(OPINION_MESSAGES.notANumber(field.label))
  }
}

/** The sentences the patient reads (the contract's, so the app's preview is the same text). */
export const sentencesOf = opinionSentences

/**
 * The conversation's answer fields (影像所见, 会诊意见, 建议) from the sentences: what the chat
 * bubble, the lists and 公开问答 show; the report page shows the sentences themselves.
 */
export function answerTexts(sentences: OpinionSentence[]): {
  findings: string
  opinion: string
  advice: string
} {
  const part = (name: OpinionSentence['part']) =>
    sentences
      .filter((one) => one.part === name)
      .map((one) => (one.label === one.sectionTitle ? one.text : `${one.label}：${one.text}`))
      .join('\n')
  return { findings: part('findings'), opinion: part('impression'), advice: part('advice') }
}

/** A variant: the built-in template with the expert's default values. */
export function asVariant(
  template: ReportTemplate,
  variant: { id: string; name: string; values: OpinionValues },
): ReportTemplate {
  return {
    ...template,
    variant: { id: variant.id, name: variant.name },
    sections: template.sections.map((section) => ({
      ...section,
      fields: section.fields.map((field) => {
        const own = variant.values[field.id]
        const { defaultValue: _old, ...rest } = field
        return own === undefined ? rest : { ...rest, defaultValue: own }
      }),
    })),
  }
}
