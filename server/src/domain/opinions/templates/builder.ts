import type {
  FieldValue,
  OpinionPart,
  TemplateField,
  TemplateSection,
} from '@contract/main/opinions'

/*
 * A few words to write a template the way RadReport writes one (IHE MRRT): a field is free text,
 * a pick-list of one ([正常 | 扩张]), a pick-list of several, or a number with its unit; each may
 * start with a default text (the normal finding), which the expert keeps, edits or replaces.
 */

interface FieldOptions {
  /** What a new opinion starts with. */
  default?: FieldValue
  /** Required before signing (default: findings fields no, 会诊意见 and 建议 yes by their section). */
  required?: boolean
  placeholder?: string
}

export function text(id: string, label: string, options: FieldOptions = {}): TemplateField {
  return field(id, label, 'text', options)
}

export function choice(
  id: string,
  label: string,
  picks: string[],
  options: FieldOptions = {},
): TemplateField {
  return { ...field(id, label, 'choice', options), options: picks }
}

export function multi(
  id: string,
  label: string,
  picks: string[],
  options: FieldOptions = {},
): TemplateField {
  return { ...field(id, label, 'multi', options), options: picks }
}

export function number(
  id: string,
  label: string,
  unit: string,
  options: FieldOptions = {},
): TemplateField {
  return { ...field(id, label, 'number', options), unit }
}

function field(
  id: string,
  label: string,
  type: TemplateField['type'],
  options: FieldOptions,
): TemplateField {
  return {
    id,
    label,
    type,
    required: options.required ?? false,
    ...(options.default !== undefined ? { defaultValue: options.default } : {}),
    ...(options.placeholder ? { placeholder: options.placeholder } : {}),
  }
}

export function section(
  id: string,
  title: string,
  part: OpinionPart,
  fields: TemplateField[],
): TemplateSection {
  return { id, title, part, fields }
}

/** Every template ends the same way: the expert's reading, and what the patient should do next. */
export function closing(impressionPlaceholder: string): TemplateSection[] {
  return [
    section('impression', '会诊意见', 'impression', [
      text('impression', '会诊意见', {
        required: true,
        placeholder: impressionPlaceholder,
      }),
    ]),
    section('advice', '建议', 'advice', [
      text('advice', '建议', {
        required: true,
        placeholder: '复查时间与方式、需补充的检查、建议线下就诊的科室',
      }),
    ]),
  ]
}
