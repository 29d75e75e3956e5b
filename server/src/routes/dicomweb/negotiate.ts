import type { FastifyRequest } from 'fastify'
import { ApiError } from '../../http/errors'

/*
 * Accept headers as DICOMweb clients send them (PS3.18 8.7): `multipart/related; type="application/
 * dicom"; transfer-syntax=*`, `image/jpeg`, `application/dicom+json`, several of them with q-values.
 */

export interface AcceptEntry {
  /** Lower-cased media range: 'multipart/related', 'image/jpeg', '*\/*' */
  type: string
  /** Lower-cased parameter names, values unquoted: { type: 'application/dicom', 'transfer-syntax': '*' } */
  params: Record<string, string>
  q: number
}

/** Entries by preference (q descending, then order), q=0 left out; an absent header is []. */
export function acceptEntries(header: string | undefined): AcceptEntry[] {
  if (!header) return []
  const entries: (AcceptEntry & { index: number })[] = []
  // Commas inside quoted parameters are not separators.
  const ranges = header.match(/(?:[^,"]|"[^"]*")+/g) ?? []
  ranges.forEach((range, index) => {
    const [type = '', ...rawParams] = range.split(';').map((p) => p.trim())
    const params: Record<string, string> = {}
    for (const raw of rawParams) {
      const eq = raw.indexOf('=')
      if (eq < 0) continue
      params[raw.slice(0, eq).trim().toLowerCase()] = raw
        .slice(eq + 1)
        .trim()
        .replace(/^"(.*)"$/, '$1')
    }
    const q = params.q === undefined ? 1 : Number(params.q)
    if (!type || !(q > 0)) return
    entries.push({ type: type.toLowerCase(), params, q, index })
  })
  return entries.sort((a, b) => b.q - a.q || a.index - b.index)
}

export function notAcceptable(message: string): ApiError {
  return new ApiError(406, message)
}

/**
 * Whether a multipart answer whose parts are `partType` is acceptable, and the transfer syntaxes the
 * client named for it (undefined: any, as stored). The bare part type (`application/dicom`) is taken
 * as a request for the multipart answer too, as most servers do.
 */
export function acceptsMultipart(
  request: FastifyRequest,
  partType: string,
): { ok: boolean; transferSyntaxes?: Set<string> } {
  const entries = acceptEntries(request.headers.accept)
  if (entries.length === 0) return { ok: true }
  const syntaxes = new Set<string>()
  let any = false
  let ok = false
  for (const entry of entries) {
    const inner =
      entry.type === 'multipart/related'
        ? (entry.params.type ?? partType).toLowerCase()
        : entry.type
    if (entry.type === '*/*' || entry.type === 'multipart/*') {
      ok = true
      any = true
      continue
    }
    if (inner !== partType && inner !== '*/*' && inner !== `${partType.split('/')[0]}/*`) continue
    ok = true
    const syntax = entry.params['transfer-syntax']
    if (!syntax || syntax === '*') any = true
    else syntax.split(',').forEach((s) => syntaxes.add(s.trim()))
  }
  return ok ? (any ? { ok } : { ok, transferSyntaxes: syntaxes }) : { ok: false }
}

/** JSON answers (QIDO, metadata): application/dicom+json, application/json or anything. */
export function requireJsonAccepted(request: FastifyRequest): void {
  const entries = acceptEntries(request.headers.accept)
  if (entries.length === 0) return
  const fine = entries.some((e) =>
    ['application/dicom+json', 'application/json', 'application/*', '*/*'].includes(e.type),
  )
  if (!fine) throw notAcceptable('仅支持 application/dicom+json 格式的应答')
}

/** The image type a rendered resource is answered in: the client's first acceptable choice, JPEG by default. */
export function renderedMime(
  request: FastifyRequest,
  queryAccept: string | undefined,
): 'image/jpeg' | 'image/png' {
  const entries = acceptEntries(queryAccept ?? request.headers.accept)
  if (entries.length === 0) return 'image/jpeg'
  for (const entry of entries) {
    if (entry.type === 'image/png') return 'image/png'
    if (entry.type === 'image/jpeg' || entry.type === 'image/*' || entry.type === '*/*') {
      return 'image/jpeg'
    }
  }
  throw notAcceptable('渲染图像仅支持 image/jpeg 或 image/png')
}
