import type { DicomJson, JsonValue } from '../../dicom/json'
import { maskName } from '../records/claims'

/*
 * What a grant shows of the patient in DICOM JSON (WADO metadata, QIDO results): what the /shared
 * pages show, no more. The name is masked as the app masks it (张**), and the attributes that
 * identify the person outside this study are left out (PS3.15 E.1-1's patient identity rows): the
 * ID numbers, birth date, address, phones. Age and sex stay, a reader needs them. Without this a
 * link visitor read the patient's resident ID from QIDO, and with name + ID could add a child as
 * their own (found by the attacker review).
 */

/** Removed outright. */
const IDENTIFYING_TAGS = [
  '00100020', // PatientID (often the resident ID number here)
  '00100021', // IssuerOfPatientID
  '00100024', // IssuerOfPatientIDQualifiersSequence
  '00100030', // PatientBirthDate
  '00100032', // PatientBirthTime
  '00100050', // PatientInsurancePlanCodeSequence
  '00101000', // OtherPatientIDs
  '00101001', // OtherPatientNames
  '00101002', // OtherPatientIDsSequence
  '00101005', // PatientBirthName
  '00101040', // PatientAddress
  '00101060', // PatientMotherBirthName
  '00101090', // MedicalRecordLocator
  '00102154', // PatientTelephoneNumbers
  '00102155', // PatientTelecomInformation
  '00104000', // PatientComments
  '00380010', // AdmissionID
] as const

const PATIENT_NAME = '00100010'

/** A copy of `json` as a grant may show it. */
export function withoutPatientIdentity(json: DicomJson): DicomJson {
  const copy: DicomJson = { ...json }
  for (const tag of IDENTIFYING_TAGS) delete copy[tag]
  const name = copy[PATIENT_NAME]
  if (name?.Value) {
    copy[PATIENT_NAME] = {
      ...name,
      // Each group (Alphabetic, Ideographic, Phonetic) masked: 张三 → 张*, Zhang^San → Z********.
      Value: name.Value.map((value): JsonValue => {
        if (typeof value === 'string') return maskName(value)
        if (!value || typeof value !== 'object') return value
        const masked: Record<string, string> = {}
        for (const [group, text] of Object.entries(value)) {
          if (typeof text === 'string') masked[group] = maskName(text)
        }
        return masked as JsonValue
      }),
    }
  }
  return copy
}
