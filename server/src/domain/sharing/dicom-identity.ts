import type { DicomJson, JsonValue } from '../../dicom/json'
import { maskName } from '../../masking'

/*
 * What a grant shows of the patient in DICOM JSON (WADO metadata, QIDO results): what the /shared
 * pages show, no more. A stored dataset can hold identity anywhere (patient module, private tags,
 * a PatientID inside a request sequence, the responsible person of a child), so this keeps an
 * allow-list rather than removing known tags: the groups a reader and the viewer need (general
 * study, series, equipment and image: 0008, 0018, 0020, 0028, 0054), and of the patient module only
 * sex, age, size and weight, with the name masked as the app masks it (张*). Sequences are
 * filtered the same way at every depth; private (odd-group) tags never pass. Without this a link
 * visitor read the patient's resident ID from QIDO (found by the attacker review).
 */

const KEPT_GROUPS = new Set(['0008', '0018', '0020', '0028', '0054'])
const KEPT_PATIENT_TAGS = new Set([
  '00100040', // PatientSex
  '00101010', // PatientAge
  '00101020', // PatientSize
  '00101030', // PatientWeight
])
const PATIENT_NAME = '00100010'

/** 张^三 → 张*: the name's component separators are not characters of the name. */
const masked = (text: string) => maskName(text.replace(/[\^=]/g, ''))

function maskedName(value: JsonValue): JsonValue {
  if (typeof value === 'string') return masked(value)
  if (!value || typeof value !== 'object') return value
  const out: Record<string, string> = {}
  // Each group (Alphabetic, Ideographic, Phonetic) masked on its own.
  for (const [group, text] of Object.entries(value)) {
    if (typeof text === 'string') out[group] = masked(text)
  }
  return out as JsonValue
}

/** A copy of `json` as a grant may show it. */
export function withoutPatientIdentity(json: DicomJson): DicomJson {
  const out: DicomJson = {}
  for (const [tag, attribute] of Object.entries(json)) {
    if (tag === PATIENT_NAME) {
      out[tag] = attribute.Value
        ? { ...attribute, Value: attribute.Value.map(maskedName) }
        : attribute
      continue
    }
    if (!KEPT_GROUPS.has(tag.slice(0, 4)) && !KEPT_PATIENT_TAGS.has(tag)) continue
    out[tag] =
      attribute.vr === 'SQ' && attribute.Value
        ? {
            ...attribute,
            Value: attribute.Value.map((item) =>
              item && typeof item === 'object' && !Array.isArray(item)
                ? withoutPatientIdentity(item as DicomJson)
                : item,
            ),
          }
        : attribute
  }
  return out
}
