import { apiOrigin } from './hosts'
import { http, type Http, type HttpResponse, type RequestOptions } from './http'
import { shareBearerHeader, shareRefusal } from './share-bearer'

/**
 * The viewer's WADO-RS calls (server/src/routes/dicomweb/wado.ts): a series' DICOM JSON metadata
 * and an instance's raw frames, with the patient's bearer token through the one request wrapper.
 * WADO paths sit at the server's root, not under a service prefix, so the base is the origin.
 * Calls are quiet (no 请求中..., no toast): the viewer shows its own state, and prefetching in the
 * background must never interrupt the person.
 */

const seg = encodeURIComponent

export function seriesPath(studyUid: string, seriesUid: string): string {
  return `/dicomweb/studies/${seg(studyUid)}/series/${seg(seriesUid)}`
}

export function instancePath(studyUid: string, seriesUid: string, sopInstanceUid: string): string {
  return `${seriesPath(studyUid, seriesUid)}/instances/${seg(sopInstanceUid)}`
}

/** The server-rendered JPEG of one frame (1-based), for the preview painted before raw frames. */
export function renderedPath(
  studyUid: string,
  seriesUid: string,
  sopInstanceUid: string,
  frame = 1,
): string {
  return `${instancePath(studyUid, seriesUid, sopInstanceUid)}/frames/${frame}/rendered`
}

/** 200 goes on; 401 keeps the session rules; anything else rejects quietly with its status. */
function quiet(): Partial<RequestOptions> {
  return {
    baseUrl: apiOrigin(),
    loading: false,
    quietOffline: true,
    hooks: {
      response: (response: HttpResponse) =>
        response.statusCode === 200 || response.statusCode === 401 ? undefined : false,
    },
  }
}

/** Through an ended grant, a refusal reads as the server's words (授权已失效) on the next slice. */
function rethrow(error: unknown): never {
  throw shareRefusal(error) ?? error
}

/** DICOM JSON of every instance of the series (PS3.18 F.2), one object per instance. */
export async function fetchSeriesMetadata(
  studyUid: string,
  seriesUid: string,
  client: Http = http,
): Promise<Record<string, unknown>[]> {
  const body = await client
    .request<unknown>({
      ...quiet(),
      url: `${seriesPath(studyUid, seriesUid)}/metadata`,
      method: 'GET',
      // A link visitor's share token while a shared exam is open (issue 9); else the login's.
      header: { Accept: 'application/dicom+json', ...shareBearerHeader() },
    })
    .catch(rethrow)
  if (!Array.isArray(body)) return []
  return body.filter(
    (item): item is Record<string, unknown> => typeof item === 'object' && item !== null,
  )
}

export interface FrameAnswer {
  /** The multipart/related body as it came. */
  body: ArrayBuffer
  /** Its Content-Type, which names the boundary. */
  contentType: string
}

/** One frame (1-based) of an instance as decoded native little-endian pixels. */
export async function fetchFrame(
  studyUid: string,
  seriesUid: string,
  sopInstanceUid: string,
  frame: number,
  client: Http = http,
): Promise<FrameAnswer> {
  const response = await client
    .request<HttpResponse>({
      ...quiet(),
      url: `${instancePath(studyUid, seriesUid, sopInstanceUid)}/frames/${frame}`,
      method: 'GET',
      header: {
        Accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
        ...shareBearerHeader(),
      },
      responseType: 'arraybuffer',
      fullResponse: true,
    })
    .catch(rethrow)
  const contentType = Object.entries(response.header).find(
    ([key]) => key.toLowerCase() === 'content-type',
  )?.[1]
  // Not instanceof: an ArrayBuffer made in another realm (a worker, a test) fails it.
  const bytes = Object.prototype.toString.call(response.data) === '[object ArrayBuffer]'
  if (!bytes || !contentType) {
    throw new Error('frame answer without bytes or content type')
  }
  return { body: response.data as ArrayBuffer, contentType }
}
