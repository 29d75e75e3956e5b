import type { DicomJson } from '../../dicom'
import type { DB } from '../../db'
import type { AiSeries, AiSlice, AiStudy, StoredPixels } from '../../providers/ai'
import type { ObjectStore } from '../../storage'
import { modalityList } from '../records'

/*
 * An exam's images as an AI provider reads them (providers/ai AiStudy): each instance's attributes
 * from its stored DICOM JSON, and its first frame's decoded stored values from the object store
 * (ingest decoded every transfer syntax once; pixels_key holds the frames), read one slice at a time
 * when the provider asks.
 */

const numbersOf = (json: DicomJson, tag: string): number[] =>
  (json[tag]?.Value ?? []).map(Number).filter((n) => Number.isFinite(n))

const firstNumber = (json: DicomJson, tag: string): number | null => numbersOf(json, tag)[0] ?? null

function parseMetadata(text: string): DicomJson {
  try {
    return JSON.parse(text) as DicomJson
  } catch {
    return {}
  }
}

async function readFirstFrame(
  store: ObjectStore,
  key: string,
  frameBytes: number,
  format: string,
): Promise<StoredPixels> {
  const got = await store.get(key, { range: { start: 0, end: frameBytes - 1 } })
  const chunks: Buffer[] = []
  for await (const chunk of got.body) {
    chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array))
  }
  // A copy on its own buffer, so 16-bit views start aligned.
  const copy = new Uint8Array(Buffer.concat(chunks)).buffer
  if (format === 'u8') return new Uint8Array(copy)
  if (format === 's16') return new Int16Array(copy)
  return new Uint16Array(copy)
}

export async function loadStudy(db: DB, store: ObjectStore, examId: string): Promise<AiStudy> {
  const exam = await db
    .selectFrom('exams')
    .select(['id', 'modalities'])
    .where('id', '=', examId)
    .executeTakeFirstOrThrow()
  const rows = await db
    .selectFrom('instances')
    .innerJoin('series', 'series.id', 'instances.series_id')
    .select([
      'instances.sop_instance_uid',
      'instances.instance_number',
      'instances.rows',
      'instances.columns',
      'instances.frame_count',
      'instances.pixels_key',
      'instances.pixel_format',
      'instances.frame_bytes',
      'instances.preview_status',
      'instances.metadata_json',
      'series.series_uid',
      'series.modality',
      'series.body_part',
      'series.description',
    ])
    .where('instances.exam_id', '=', examId)
    .orderBy('series.series_uid')
    .orderBy('instances.instance_number')
    .orderBy('instances.sop_instance_uid')
    .execute()
  const bySeries = new Map<string, AiSeries>()
  for (const row of rows) {
    let series = bySeries.get(row.series_uid)
    if (!series) {
      series = {
        seriesUid: row.series_uid,
        modality: row.modality,
        bodyPart: row.body_part,
        description: row.description,
        slices: [],
      }
      bySeries.set(row.series_uid, series)
    }
    const json = parseMetadata(row.metadata_json)
    const spacing = numbersOf(json, '00280030')
    const position = numbersOf(json, '00200032')
    const orientation = numbersOf(json, '00200037')
    const { pixels_key: key, frame_bytes: frameBytes, pixel_format: format } = row
    const readable =
      row.preview_status === 'ready' &&
      key !== null &&
      frameBytes !== null &&
      (format === 'u8' || format === 'u16' || format === 's16')
    const slice: AiSlice = {
      sopInstanceUid: row.sop_instance_uid,
      instanceNumber: row.instance_number,
      rows: Number(row.rows ?? firstNumber(json, '00280010') ?? 0),
      columns: Number(row.columns ?? firstNumber(json, '00280011') ?? 0),
      frameCount: Number(row.frame_count),
      rescaleSlope: firstNumber(json, '00281053') ?? 1,
      rescaleIntercept: firstNumber(json, '00281052') ?? 0,
      pixelSpacing: spacing.length >= 2 ? [spacing[0]!, spacing[1]!] : null,
      imagePosition: position.length === 3 ? position : null,
      imageOrientation: orientation.length === 6 ? orientation : null,
      sliceThickness: firstNumber(json, '00180050'),
      spacingBetweenSlices: firstNumber(json, '00180088'),
      readPixels: readable ? () => readFirstFrame(store, key, Number(frameBytes), format) : null,
    }
    series.slices.push(slice)
  }
  return { examId, modalities: modalityList(exam.modalities), series: [...bySeries.values()] }
}
