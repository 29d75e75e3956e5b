import type { Readable } from 'node:stream'
import { DicomParseError, parse } from '../../dicom'
import type { ObjectStore } from '../../storage'
import {
  type JobContext,
  JobFailure,
  type JobKind,
  type JobOutcome,
  type JobRow,
} from '../../jobs/runner'
import { type IngestFile, ingestFiles, type InstanceOutcome } from './ingest'

/*
 * STOW-RS as a job: the route streams the request's parts into staging (`staging/stow/<job>/<n>`)
 * with a manifest, queues a 'stow' job and answers when it is done; this file is the job's work and
 * the PS3.18 answer made from its outcome. Stored rows come from ingestFiles (one transaction).
 */

export const STOW_KIND = 'stow'

export interface StowManifest {
  /** The study named in the path (POST /studies/{study}); instances of other studies are refused. */
  studyUid?: string
  parts: { key: string; contentType?: string; bytes: number }[]
}

export const stagingPrefixOf = (jobId: string) => `staging/stow/${jobId}/`
export const manifestKey = (prefix: string) => `${prefix}manifest.json`

/** One instance of the answer: what the hospital's system needs to know per part it sent. */
export interface StowInstance {
  status: 'stored' | 'duplicate' | 'failed'
  sopClassUid?: string
  sopInstanceUid?: string
  studyUid?: string
  seriesUid?: string
  /** failed only: PS3.18 / PS3.4 failure reason. */
  failureReason?: number
  /** failed only: the reason in Chinese (for the job's message and our logs, not DICOM JSON). */
  reason?: string
}

export interface StowResult {
  instances: StowInstance[]
}

/** PS3.4 / PS3.18 failure reasons we use. */
export const FAILURE = {
  /** The part is not a DICOM instance we can read. */
  cannotUnderstand: 0xc000,
  /** Required attributes (the UIDs) are missing. */
  doesNotMatchSopClass: 0xa900,
  outOfResources: 0xa700,
  /** An instance of another study posted to /studies/{study} (the code dcm4chee and others use). */
  studyUidMismatch: 0xc409,
  processingFailure: 0x0110,
} as const

export const STOW_MESSAGES = {
  notDicomPart: '该部分不是 application/dicom 内容',
  studyMismatch: '实例的检查 UID 与请求地址中的检查 UID 不一致',
  stagingLost: '推送的数据已丢失，请重新发送',
  noHospital: '推送缺少医院信息，请重新发送',
  summary: (stored: number, duplicates: number, failed: number) =>
    `已存储 ${stored} 个实例` +
    (duplicates ? `，${duplicates} 个此前已存储` : '') +
    (failed ? `，${failed} 个未能存储` : ''),
}

function failureReasonOf(outcome: InstanceOutcome): number {
  switch (outcome.code) {
    case 'MISSING_UID':
      return FAILURE.doesNotMatchSopClass
    case 'TOO_LARGE':
      return FAILURE.outOfResources
    case 'NOT_DICOM':
    case 'CORRUPT':
      return FAILURE.cannotUnderstand
    default:
      return FAILURE.processingFailure
  }
}

async function readObject(store: ObjectStore, key: string): Promise<Buffer> {
  const { body } = await store.get(key)
  const chunks: Buffer[] = []
  for await (const chunk of body as Readable) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks)
}

/** The 'stow' job: ingest the staged parts as the hospital's, per-part outcome in the result. */
export async function processStow(job: JobRow, ctx: JobContext): Promise<JobOutcome> {
  if (!job.hospital_id) throw new JobFailure(STOW_MESSAGES.noHospital)
  let manifest: StowManifest
  try {
    manifest = JSON.parse(
      (await readObject(ctx.store, manifestKey(job.staging_prefix))).toString('utf8'),
    ) as StowManifest
  } catch (error) {
    if ((error as Error).name === 'ObjectNotFoundError')
      throw new JobFailure(STOW_MESSAGES.stagingLost)
    throw error
  }

  // Parts refused before ingest (wrong media type, another study), by position.
  const refused = new Map<number, StowInstance>()
  const positions: number[] = []
  const store = ctx.store
  async function* files(): AsyncIterable<IngestFile> {
    for (const [index, part] of manifest.parts.entries()) {
      if (part.contentType && part.contentType !== 'application/dicom') {
        refused.set(index, {
          status: 'failed',
          failureReason: FAILURE.cannotUnderstand,
          reason: STOW_MESSAGES.notDicomPart,
        })
        continue
      }
      const bytes = await readObject(store, part.key)
      if (manifest.studyUid) {
        const uids = studyUidsOf(bytes)
        if (uids && uids.study !== manifest.studyUid) {
          refused.set(index, {
            status: 'failed',
            sopClassUid: uids.sopClass,
            sopInstanceUid: uids.sopInstance,
            studyUid: uids.study,
            failureReason: FAILURE.studyUidMismatch,
            reason: STOW_MESSAGES.studyMismatch,
          })
          continue
        }
      }
      positions.push(index)
      yield { name: `part-${index + 1}`, bytes }
    }
  }

  const result = await ingestFiles(
    ctx,
    { kind: 'hospital', hospitalId: job.hospital_id },
    files(),
    { batchId: ctx.batchId },
  )
  const instances: StowInstance[] = []
  const ingested = new Map(positions.map((position, i) => [position, result.instances[i]!]))
  for (let index = 0; index < manifest.parts.length; index++) {
    const early = refused.get(index)
    const outcome = ingested.get(index)
    if (early) instances.push(early)
    else if (outcome) instances.push(stowInstanceOf(outcome))
  }
  const failed = instances.filter((item) => item.status === 'failed').length
  return {
    examId: result.examIds[0] ?? null,
    storedCount: result.stored,
    duplicateCount: result.duplicates,
    skippedCount: failed,
    message: STOW_MESSAGES.summary(result.stored, result.duplicates, failed),
    result: { instances } satisfies StowResult,
  }
}

function stowInstanceOf(outcome: InstanceOutcome): StowInstance {
  const item: StowInstance = {
    status: outcome.status,
    sopClassUid: outcome.sopClassUid,
    sopInstanceUid: outcome.sopInstanceUid,
    studyUid: outcome.studyUid,
    seriesUid: outcome.seriesUid,
  }
  if (outcome.status === 'failed') {
    item.failureReason = failureReasonOf(outcome)
    item.reason = outcome.reason
  }
  return item
}

/** The UIDs of an instance, or undefined when it cannot be read (ingest then says why). */
function studyUidsOf(
  bytes: Buffer,
): { study: string; sopClass?: string; sopInstance?: string } | undefined {
  try {
    const instance = parse(bytes)
    return {
      study: instance.studyInstanceUid,
      sopClass: instance.sopClassUid || undefined,
      sopInstance: instance.sopInstanceUid,
    }
  } catch (error) {
    if (error instanceof DicomParseError) return undefined
    throw error
  }
}

/** A hospital's STOW-RS push, stored by the job runner (listed in src/job-kinds.ts). */
export const stowJob: JobKind = { kind: STOW_KIND, process: processStow }

// --- The PS3.18 answer ------------------------------------------------------------------------

type JsonAttribute = { vr: string; Value?: unknown[] }
export type StowResponseBody = Record<string, JsonAttribute>

/**
 * PS3.18 10.5.3: 200 when every instance is stored (a duplicate is stored: it is there, once), 202
 * when some failed, 409 when none could be stored. The body is the Store Instances Response Module
 * as DICOM JSON: ReferencedSOPSequence (with each instance's RetrieveURL), FailedSOPSequence (with
 * its FailureReason), and the study's RetrieveURL when all stored instances are of one study.
 */
export function stowResponse(
  result: StowResult,
  baseUrl: string,
): { status: 200 | 202 | 409; body: StowResponseBody } {
  const referenced = result.instances.filter((item) => item.status !== 'failed')
  const failed = result.instances.filter((item) => item.status === 'failed')
  const body: StowResponseBody = {}
  const studies = new Set(referenced.map((item) => item.studyUid))
  if (studies.size === 1 && referenced[0]?.studyUid) {
    body['00081190'] = { vr: 'UR', Value: [`${baseUrl}/studies/${referenced[0].studyUid}`] }
  }
  if (failed.length > 0) {
    body['00081198'] = {
      vr: 'SQ',
      Value: failed.map((item) => ({
        ...sopReference(item),
        '00081197': { vr: 'US', Value: [item.failureReason ?? FAILURE.processingFailure] },
      })),
    }
  }
  if (referenced.length > 0) {
    body['00081199'] = {
      vr: 'SQ',
      Value: referenced.map((item) => ({
        ...sopReference(item),
        '00081190': {
          vr: 'UR',
          Value: [
            `${baseUrl}/studies/${item.studyUid}/series/${item.seriesUid}/instances/${item.sopInstanceUid}`,
          ],
        },
      })),
    }
  }
  const status = failed.length === 0 ? 200 : referenced.length === 0 ? 409 : 202
  return { status, body }
}

function sopReference(item: StowInstance): StowResponseBody {
  const attributes: StowResponseBody = {}
  attributes['00081150'] = item.sopClassUid ? { vr: 'UI', Value: [item.sopClassUid] } : { vr: 'UI' }
  attributes['00081155'] = item.sopInstanceUid
    ? { vr: 'UI', Value: [item.sopInstanceUid] }
    : { vr: 'UI' }
  return attributes
}
