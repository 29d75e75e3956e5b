import { normaliseIdNumber } from '../../domain/records/access'
import { mobileIn, type PushedPatient } from '../../domain/records/exams'
import {
  fhirDoctorNames,
  fhirHumanName,
  isFindingsForm,
  readKeyImages,
  type ReportWrite,
} from '../../domain/reports/reports'
import { idCardNumberProblem } from '../../domain/identity/id-card-number'
import {
  type DiagnosticReportInput,
  DiagnosticReportSchema,
  type FhirHumanName,
  type FhirIdentifier,
  type FhirPatient,
  type FhirReference,
  REPORT_LIMITS,
} from './diagnostic-report-schema'
import { FhirError, fhirError, issuesFromZod, type OutcomeIssue } from './outcome'

/*
 * DiagnosticReport <-> what the domain stores. Parsing checks the accepted subset, reads the fields
 * the app shows (影像所见, 诊断意见, doctors, times), and takes the patient's identity out of the
 * resource: the ID number, name and phone go to the exam (digests, encrypted), never into the stored
 * JSON in clear (domain/reports/reports.ts keeps their digests and the encrypted name and phone in the
 * version's meta). Rendering puts the name and phone back, and answers the ID number as masked
 * (data-absent-reason), so a hospital that reads, edits and PUTs a report back keeps the identity.
 */

/** Identifier systems of the resident ID (居民身份证号). */
export const RESIDENT_ID_SYSTEMS = new Set([
  'urn:oid:2.16.156.10011.1.1',
  'urn:oid:2.16.156.10011.1.3',
])
/** identifier.type code for a national person identifier of China (HL7 v2-0203 NNxxx). */
const RESIDENT_ID_TYPE = 'NNCHN'
const ACCESSION_TYPE = 'ACSN'
export const DICOM_UID_SYSTEM = 'urn:dicom:uid'
const DATA_ABSENT_REASON = 'http://hl7.org/fhir/StructureDefinition/data-absent-reason'
const UID = /^[0-2](\.(0|[1-9]\d*))+$/

const ROOT = 'DiagnosticReport'

function hasTypeCode(identifier: FhirIdentifier, code: string): boolean {
  return identifier.type?.coding?.some((coding) => coding.code === code) ?? false
}

export function isResidentId(identifier: FhirIdentifier): boolean {
  return (
    (identifier.system !== undefined && RESIDENT_ID_SYSTEMS.has(identifier.system)) ||
    hasTypeCode(identifier, RESIDENT_ID_TYPE)
  )
}

/** The identifier with its value replaced by data-absent-reason "masked". */
function masked(identifier: FhirIdentifier): Record<string, unknown> {
  const { value: _value, period: _period, ...rest } = identifier
  return {
    ...rest,
    extension: [
      ...(identifier.extension ?? []).filter((ext) => ext.url !== DATA_ABSENT_REASON),
      { url: DATA_ABSENT_REASON, valueCode: 'masked' },
    ],
  }
}

/** The person's name as the app shows it (the shared reading rule, reports.ts). */
function nameOf(names: FhirHumanName[] | undefined): string | undefined {
  return fhirHumanName(names) ?? undefined
}

const GENDER_TO_DICOM: Record<string, string> = { male: 'M', female: 'F', other: 'O' }

interface Issues {
  list: OutcomeIssue[]
  add(code: string, expression: string, text: string): void
}

function issues(): Issues {
  const list: OutcomeIssue[] = []
  return {
    list,
    add(code, expression, text) {
      list.push({ code, expression, diagnostics: `${expression}：${text}` })
    },
  }
}

/** A bare resource body check: what FHIR answers 400 for (not a DiagnosticReport at all). */
function assertResourceShape(body: unknown): asserts body is Record<string, unknown> {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw fhirError(400, 'structure', '请求内容应为一个 FHIR 资源（JSON 对象）')
  }
  const type = (body as { resourceType?: unknown }).resourceType
  if (type !== 'DiagnosticReport') {
    throw fhirError(
      400,
      'structure',
      type === undefined
        ? '缺少 resourceType，应为 DiagnosticReport'
        : `resourceType 应为 DiagnosticReport，收到的是 ${String(type).slice(0, 40)}`,
      'resourceType',
    )
  }
}

/**
 * Checks a pushed DiagnosticReport and reduces it to what the domain stores. Every wrong element is
 * reported at once (422, with its FHIRPath), so a hospital's integrator fixes them in one round.
 */
export function parseDiagnosticReport(
  body: unknown,
  now: Date,
): { write: ReportWrite; input: DiagnosticReportInput } {
  assertResourceShape(body)
  // With the input on each issue, a value of the wrong type is told apart from a missing one
  // (outcome.ts: `structure` 类型不正确, not `required` 缺少必填项).
  const parsed = DiagnosticReportSchema.safeParse(body, { reportInput: true })
  if (!parsed.success) {
    throw new FhirError(
      422,
      parsed.error.issues.flatMap((issue) => issuesFromZod(ROOT, issue)).slice(0, 20),
    )
  }
  const input = parsed.data
  const problems = issues()

  // The report's own identifier (the hospital's report number) and the accession number (ACSN).
  let identifier: string | undefined
  let accessionNumber: string | undefined
  input.identifier.forEach((id, index) => {
    const at = `${ROOT}.identifier[${index}]`
    if (hasTypeCode(id, ACCESSION_TYPE)) {
      if (!id.value) problems.add('required', `${at}.value`, '检查号（ACSN）缺少 value')
      else accessionNumber ??= id.value
    } else if (identifier === undefined && id.value) {
      if (id.system?.includes('|')) problems.add('value', `${at}.system`, 'system 不能包含 |')
      identifier = `${id.system ?? ''}|${id.value}`
    }
  })
  if (identifier === undefined) {
    problems.add(
      'required',
      `${ROOT}.identifier`,
      '缺少报告标识：至少一个非检查号（非 ACSN）的 identifier，含 system 与 value',
    )
  }

  const code = input.code.text ?? input.code.coding?.find((c) => c.display)?.display
  if (!code) {
    problems.add(
      'required',
      `${ROOT}.code`,
      '须有 text 或 coding[].display（检查项目名称，如 胸部CT平扫）',
    )
  }

  const studyUid = studyUidOf(input, problems)
  const patient = patientOf(input, problems, now)

  const findings = findingsOf(input, problems)
  // Key images (media): each must name an instance of this study (reports.ts readKeyImages).
  for (const problem of readKeyImages(input, studyUid ?? null).problems) {
    problems.add('value', problem.expression, problem.text)
  }
  if (input.effectiveDateTime && input.effectivePeriod) {
    problems.add(
      'structure',
      `${ROOT}.effective[x]`,
      'effectiveDateTime 与 effectivePeriod 只能二选一',
    )
  }
  const effectiveAt = input.effectiveDateTime ?? input.effectivePeriod?.start ?? null
  const studyMoment = effectiveAt
    ? /^(\d{4}-\d{2}-\d{2})(?:T(\d{2}:\d{2}:\d{2}))?/.exec(effectiveAt)
    : null

  if (problems.list.length > 0) throw new FhirError(422, problems.list.slice(0, 20))

  const write: ReportWrite = {
    identifier: identifier!,
    status: input.status,
    studyUid: studyUid!,
    ...(accessionNumber ? { accessionNumber } : {}),
    ...(patient ? { patient } : {}),
    codeText: code!,
    findings,
    conclusion: input.conclusion ?? null,
    // 报告医生 / 审核医生 by the rule the patient's report history reads them with (reports.ts).
    performer: fhirDoctorNames(input, input.performer),
    reviewer: fhirDoctorNames(input, input.resultsInterpreter),
    effectiveAt,
    issuedAt: input.issued ? new Date(input.issued).toISOString() : null,
    ...(studyMoment?.[1] ? { studyDate: studyMoment[1] } : {}),
    ...(studyMoment?.[2] ? { studyTime: studyMoment[2] } : {}),
    resource: storedResource(input),
  }
  return { write, input }
}

function studyUidOf(input: DiagnosticReportInput, problems: Issues): string | undefined {
  if (input.imagingStudy.length !== 1) {
    problems.add(
      'value',
      `${ROOT}.imagingStudy`,
      '须且只能有一个 imagingStudy：一份报告对应一个检查（StudyInstanceUID）',
    )
    return undefined
  }
  const at = `${ROOT}.imagingStudy[0].identifier`
  const study = input.imagingStudy[0]!.identifier
  if (!study?.value || study.system !== DICOM_UID_SYSTEM) {
    problems.add(
      'required',
      at,
      `须为 { "system": "${DICOM_UID_SYSTEM}", "value": "urn:oid:<StudyInstanceUID>" }`,
    )
    return undefined
  }
  const uid = study.value.replace(/^urn:oid:/, '')
  if (uid.length > 64 || !UID.test(uid)) {
    problems.add('value', `${at}.value`, 'StudyInstanceUID 格式不正确（数字和点，最长 64 位）')
    return undefined
  }
  return uid
}

/** The contained resource a `#id` reference points at. */
function containedOf(input: DiagnosticReportInput, reference: FhirReference | undefined) {
  const ref = reference?.reference
  if (!ref?.startsWith('#')) return undefined
  return input.contained?.find((resource) => resource.id === ref.slice(1))
}

function patientOf(
  input: DiagnosticReportInput,
  problems: Issues,
  now: Date,
): PushedPatient | undefined {
  const subject = input.subject
  const contained = containedOf(input, subject)
  if (subject.reference?.startsWith('#') && !contained) {
    problems.add(
      'value',
      `${ROOT}.subject.reference`,
      `找不到 contained 中 id 为 ${subject.reference.slice(1)} 的资源`,
    )
    return undefined
  }
  if (contained && contained.resourceType !== 'Patient') {
    problems.add('value', `${ROOT}.subject.reference`, '应指向 contained 中的 Patient')
    return undefined
  }
  const patient = contained as FhirPatient | undefined
  const patientIndex = patient ? input.contained!.indexOf(patient) : -1
  const patientPath = `${ROOT}.contained[${patientIndex}]`

  // Resident ID: from the contained Patient's identifiers and subject.identifier; a masked one
  // (as we answer reads) means "unchanged".
  const ids: { value: string; at: string }[] = []
  patient?.identifier?.forEach((id, index) => {
    if (isResidentId(id) && id.value)
      ids.push({ value: id.value, at: `${patientPath}.identifier[${index}].value` })
  })
  if (subject.identifier && isResidentId(subject.identifier) && subject.identifier.value) {
    ids.push({ value: subject.identifier.value, at: `${ROOT}.subject.identifier.value` })
  }
  let idNumber: string | undefined
  for (const id of ids) {
    const value = normaliseIdNumber(id.value)
    const problem = idCardNumberProblem(value, now)
    if (problem) problems.add('value', id.at, problem.replace('请输入', '应为'))
    else if (idNumber && idNumber !== value)
      problems.add('value', id.at, '与另一处的身份证号不一致')
    else idNumber = value
  }

  const name = nameOf(patient?.name) ?? subject.display?.trim()
  if (!name) {
    problems.add(
      'required',
      `${ROOT}.subject`,
      '缺少患者姓名：请在 subject.display 或 contained 的 Patient.name 中提供',
    )
  } else if ([...name].length > 50) {
    problems.add('value', `${ROOT}.subject`, '患者姓名过长')
  }
  if (idNumber && !name) return undefined

  const phone = patient?.telecom
    ?.filter((point) => point.system === 'phone' || point.system === 'sms')
    .map((point) => mobileIn(point.value))
    .find((mobile) => mobile !== undefined)
  const sex = patient?.gender ? GENDER_TO_DICOM[patient.gender] : undefined
  const birthDate =
    patient?.birthDate && /^\d{4}-\d{2}-\d{2}$/.test(patient.birthDate)
      ? patient.birthDate
      : undefined
  if (!name) return undefined
  return {
    name,
    ...(idNumber ? { idNumber } : {}),
    ...(phone ? { phone } : {}),
    ...(sex ? { sex } : {}),
    ...(birthDate ? { birthDate } : {}),
  }
}

/** 影像所见: the text/plain presentedForm. Other forms are kept by URL only. */
function findingsOf(input: DiagnosticReportInput, problems: Issues): string | null {
  let findings: string | null = null
  input.presentedForm?.forEach((form, index) => {
    const at = `${ROOT}.presentedForm[${index}]`
    const plain = isFindingsForm(form)
    if (form.data === undefined) return
    if (!plain) {
      problems.add(
        'not-supported',
        `${at}.data`,
        '只接收 text/plain 的影像所见正文；PDF 等其他格式请以 url 引用，不要内嵌 data',
      )
      return
    }
    if (findings !== null) {
      problems.add('value', at, '只能有一个 text/plain 的 presentedForm（影像所见）')
      return
    }
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(form.data) || form.data.length % 4 !== 0) {
      problems.add('value', `${at}.data`, '应为 base64 编码的 UTF-8 文本')
      return
    }
    const text = Buffer.from(form.data, 'base64').toString('utf8')
    if (text.includes('\uFFFD')) {
      problems.add('value', `${at}.data`, '解码后不是有效的 UTF-8 文本')
    } else if (text.length > REPORT_LIMITS.findings) {
      problems.add('value', `${at}.data`, `影像所见不能超过 ${REPORT_LIMITS.findings} 字`)
    } else if (text.includes('\u0000')) {
      problems.add('value', `${at}.data`, '内容包含无效字符（空字符）')
    } else {
      findings = text
    }
  })
  return findings
}

/**
 * The resource as stored: without our id/meta, without the narrative, and with the patient's
 * identity taken out (ID numbers masked, name and phone removed: they live on the exam).
 */
function storedResource(input: DiagnosticReportInput): Record<string, unknown> {
  const { resourceType: _type, id: _id, meta: _meta, text: _text, ...rest } = input
  const contained = rest.contained?.map((resource) => {
    if (resource.resourceType !== 'Patient') return resource
    const { name: _name, telecom: _telecom, identifier, ...patient } = resource
    return { ...patient, ...(identifier ? { identifier: identifier.map(masked) } : {}) }
  })
  const { display: _display, identifier: subjectId, ...subject } = rest.subject
  return {
    ...rest,
    ...(contained ? { contained } : {}),
    subject: { ...subject, ...(subjectId ? { identifier: masked(subjectId) } : {}) },
  }
}
