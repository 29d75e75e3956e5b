import { mkdir, writeFile } from 'node:fs/promises'
import path from 'node:path'
import { demoHeadCtRle, type DemoPatient } from './phantoms'
import { DEMO_REPORTS } from './reports'
import { DEMO_PATIENT_ID_NUMBER, DEMO_PATIENT_NAME } from './seed'

/** The boundary of the STOW-RS body the sample writes; the README's curl line names it. */
export const SAMPLE_BOUNDARY = 'yingxiang-sample'

export interface SampleStudy {
  studyUid: string
  accessionNumber: string
  files: string[]
  stowBody: string
  report: string
}

/**
 * `npm run hospital -- sample <dir>`: a synthetic study (头颅 CT, RLE) for the demo patient, or for
 * the given person, written as DICOM files, as the STOW-RS body a hospital would send
 * (`stow.body`), and with its FHIR DiagnosticReport (`report.json`), so the README's curl lines
 * push a study and a report by hand. Nothing is sent or stored in a database here.
 */
export async function writeSampleStudy(
  dir: string,
  options: { name?: string; idNumber?: string; now?: Date } = {},
): Promise<SampleStudy> {
  const now = options.now ?? new Date()
  const local = new Date(now.getTime() + 8 * 3600_000).toISOString()
  const date = local.slice(0, 10).replace(/-/g, '')
  const time = local.slice(11, 19).replace(/:/g, '')
  const accessionNumber = `CT${date}${String(now.getTime() % 1000).padStart(3, '0')}`
  const patient: DemoPatient = {
    name: options.name ?? DEMO_PATIENT_NAME,
    idNumber: options.idNumber ?? DEMO_PATIENT_ID_NUMBER,
    sex: 'M',
    birthDate: '19900307',
  }
  const study = demoHeadCtRle({
    patient,
    accessionNumber,
    date,
    time,
    institution: '示例市第一人民医院',
  })
  await mkdir(dir, { recursive: true })
  const files: string[] = []
  const parts: Buffer[] = []
  for (const [index, bytes] of study.files.entries()) {
    const file = path.join(dir, `instance-${String(index + 1).padStart(2, '0')}.dcm`)
    await writeFile(file, bytes)
    files.push(file)
    parts.push(
      Buffer.from(`--${SAMPLE_BOUNDARY}\r\nContent-Type: application/dicom\r\n\r\n`),
      bytes,
      Buffer.from('\r\n'),
    )
  }
  parts.push(Buffer.from(`--${SAMPLE_BOUNDARY}--\r\n`))
  const stowBody = path.join(dir, 'stow.body')
  await writeFile(stowBody, Buffer.concat(parts))
  const resource = DEMO_REPORTS.headCt.resource({
    studyUid: study.studyUid,
    accessionNumber,
    patient,
    date,
    time,
  })
  // A report number of its own per sample, so each sample is a new report.
  ;(resource.identifier as { value: string }[])[0]!.value = `RPT-${accessionNumber}`
  const report = path.join(dir, 'report.json')
  await writeFile(report, `${JSON.stringify(resource, null, 2)}\n`)
  return { studyUid: study.studyUid, accessionNumber, files, stowBody, report }
}
