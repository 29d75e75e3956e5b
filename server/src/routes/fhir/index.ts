import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ExamsTable, ReportsTable } from '../../db/schema'
import {
  type DateBound,
  findHospitalReport,
  renderReport,
  REPORT_STATUSES,
  type ReportSearch,
  reportVersions,
  saveHospitalReport,
  searchHospitalReports,
  type Token,
} from '../../domain/reports/reports'
import { sendSubscribeNotices } from '../../domain/messages'
import { idCardNumberProblem } from '../../domain/identity/id-card-number'
import { normaliseIdNumber } from '../../domain/records/access'
import { hospitalAuth } from '../hospital-auth'
import { capabilityStatement } from './capability'
import { parseDiagnosticReport, RESIDENT_ID_SYSTEMS } from './diagnostic-report'
import { FHIR_JSON, fhirError, fhirErrorHandler, operationOutcome, sendOutcome } from './outcome'

/*
 * FHIR R4 endpoint for hospital reports: /fhir/metadata, and create/update/read/vread/history/search
 * of DiagnosticReport, each hospital seeing only its own (Bearer hospital key). Its own plugin
 * context, so its errors are OperationOutcomes and its bodies application/fhir+json.
 */

export const FHIR_PREFIX = '/fhir'
const MAX_COUNT = 100
const DEFAULT_COUNT = 20
const MAX_OFFSET = 10_000

type IdParams = { Params: { id: string } }
type VersionParams = { Params: { id: string; vid: string } }
type Query = Record<string, string | string[] | undefined>

/** The base URL clients use for us (behind a trusted proxy, its host and scheme). */
function baseUrl(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${FHIR_PREFIX}`
}

function etag(version: number): string {
  return `W/"${version}"`
}

function versionHeaders(reply: FastifyReply, request: FastifyRequest, report: ReportsTable) {
  const location = `${baseUrl(request)}/DiagnosticReport/${report.id}/_history/${report.version}`
  return reply
    .header('etag', etag(report.version))
    .header('last-modified', new Date(report.updated_at).toUTCString())
    .header('location', location)
    .header('content-location', location)
}

/** If-Match: W/"3" or "3"; absent means "whatever the current version is". */
function expectedVersion(request: FastifyRequest): number | undefined {
  const header = request.headers['if-match']
  if (header === undefined) return undefined
  const match = /^\s*(?:W\/)?"(\d{1,9})"\s*$/.exec(header)
  if (!match) throw fhirError(400, 'invalid', 'If-Match 格式不正确，应为 W/"<版本号>"，如 W/"2"')
  return Number(match[1])
}

/** One value of a query parameter; repeating one that cannot be repeated is an error. */
function single(query: Query, name: string): string | undefined {
  const value = query[name]
  if (Array.isArray(value)) {
    throw fhirError(400, 'invalid', `查询参数 ${name} 只能出现一次（多个值请用逗号分隔，表示“或”）`)
  }
  return value
}

function tokens(value: string): Token[] {
  return value
    .split(',')
    .filter((part) => part !== '')
    .map((part) => {
      const bar = part.indexOf('|')
      return bar < 0 ? { value: part } : { system: part.slice(0, bar), value: part.slice(bar + 1) }
    })
    .filter((token) => token.value !== '')
}

function integer(value: string | undefined, name: string, max: number): number | undefined {
  if (value === undefined) return undefined
  if (!/^\d{1,6}$/.test(value)) throw fhirError(400, 'invalid', `查询参数 ${name} 应为非负整数`)
  return Math.min(Number(value), max)
}

const SEARCH_PARAMS = new Set([
  'identifier',
  'patient.identifier',
  'subject.identifier',
  'subject:Patient.identifier',
  'status',
  'date',
  '_count',
  '_offset',
  '_sort',
  '_summary',
  '_total',
  '_format',
  '_pretty',
])
const SORTS = new Set(['date', '-date', 'issued', '-issued', '_lastUpdated', '-_lastUpdated'])

/**
 * The search a query asks for. Unknown parameters are refused (FHIR's strict handling): a hospital
 * misspelling `identifer` must not get every report back as if it had matched.
 */
function parseSearch(query: Query, now: Date): ReportSearch {
  for (const name of Object.keys(query)) {
    if (!SEARCH_PARAMS.has(name)) {
      throw fhirError(
        400,
        'not-supported',
        `不支持的查询参数 ${name.slice(0, 60)}；可用：identifier、patient.identifier、status、date、_count、_offset、_sort`,
      )
    }
  }
  const search: ReportSearch = { sort: '-_lastUpdated', count: DEFAULT_COUNT, offset: 0 }

  const identifier = single(query, 'identifier')
  if (identifier !== undefined) {
    search.identifier = tokens(identifier)
    if (search.identifier.length === 0) throw fhirError(400, 'invalid', '查询参数 identifier 为空')
  }

  const patientParams = ['patient.identifier', 'subject.identifier', 'subject:Patient.identifier']
  const patientValue = patientParams.map((name) => single(query, name)).find((v) => v !== undefined)
  if (patientValue !== undefined) {
    search.patientIdNumbers = tokens(patientValue).map((token) => {
      if (token.system && !RESIDENT_ID_SYSTEMS.has(token.system)) {
        throw fhirError(
          400,
          'not-supported',
          `patient.identifier 只支持居民身份证号（system 为 ${[...RESIDENT_ID_SYSTEMS].join(' 或 ')}，或省略 system）`,
        )
      }
      const value = normaliseIdNumber(token.value)
      const problem = idCardNumberProblem(value, now)
      if (problem)
        throw fhirError(400, 'invalid', `patient.identifier：${problem.replace('请输入', '应为')}`)
      return value
    })
    if (search.patientIdNumbers.length === 0) {
      throw fhirError(400, 'invalid', '查询参数 patient.identifier 为空')
    }
  }

  const status = single(query, 'status')
  if (status !== undefined) {
    search.status = status.split(',').filter(Boolean)
    const wrong = search.status.find((s) => !(REPORT_STATUSES as readonly string[]).includes(s))
    if (wrong !== undefined || search.status.length === 0) {
      throw fhirError(
        400,
        'invalid',
        `查询参数 status 取值无效，可选 ${REPORT_STATUSES.join('、')}`,
      )
    }
  }

  const dates = query.date === undefined ? [] : [query.date].flat()
  search.date = dates.map((value): DateBound => {
    const match = /^(eq|ge|gt|le|lt)?(\d{4}-\d{2}-\d{2})$/.exec(value)
    const day = match ? new Date(`${match[2]}T00:00:00Z`) : undefined
    if (
      !match ||
      !day ||
      Number.isNaN(day.getTime()) ||
      day.toISOString().slice(0, 10) !== match[2]
    ) {
      throw fhirError(
        400,
        'invalid',
        '查询参数 date 应为 YYYY-MM-DD，可带 ge/gt/le/lt/eq 前缀，如 date=ge2026-11-01',
      )
    }
    return { op: (match[1] ?? 'eq') as DateBound['op'], date: match[2]! }
  })

  const sort = single(query, '_sort')
  if (sort !== undefined) {
    if (!SORTS.has(sort)) {
      throw fhirError(
        400,
        'invalid',
        '查询参数 _sort 可选 date、issued、_lastUpdated（前加 - 为倒序）',
      )
    }
    search.sort = sort as ReportSearch['sort']
  }
  search.count = integer(single(query, '_count'), '_count', MAX_COUNT) ?? DEFAULT_COUNT
  search.offset = integer(single(query, '_offset'), '_offset', MAX_OFFSET) ?? 0
  const summary = single(query, '_summary')
  if (summary === 'count') search.count = 0
  else if (summary !== undefined && summary !== 'false') {
    throw fhirError(400, 'not-supported', '查询参数 _summary 只支持 count 或 false')
  }
  return search
}

/** A search's own URL with another offset, for the Bundle's self/next/previous links. */
function pageUrl(request: FastifyRequest, query: Query, offset: number, count: number): string {
  const params = new URLSearchParams()
  for (const [name, value] of Object.entries(query)) {
    if (name === '_offset' || name === '_count' || value === undefined) continue
    for (const item of [value].flat()) params.append(name, item)
  }
  params.set('_count', String(count))
  params.set('_offset', String(offset))
  return `${baseUrl(request)}/DiagnosticReport?${params.toString()}`
}

/** Answers JSON unless the client asks for a format we do not speak (XML, Turtle). */
function checkFormat(request: FastifyRequest): void {
  const format = (request.query as Query | undefined)?._format
  if (format !== undefined) {
    const wanted = [format].flat()
    if (
      !wanted.every((f) =>
        /^(json|application\/(fhir\+)?json|application\/json\+fhir)(;.*)?$/i.test(f),
      )
    ) {
      throw fhirError(
        406,
        'not-supported',
        '只支持 JSON 格式（_format=json 或 application/fhir+json）',
      )
    }
  }
  const accept = request.headers.accept
  if (accept && !/json|\*\/\*|application\/\*/i.test(accept)) {
    throw fhirError(406, 'not-supported', '只支持 JSON 格式，请使用 Accept: application/fhir+json')
  }
}

export default async function fhirRoutes(app: FastifyInstance): Promise<void> {
  await app.register(
    async (fhir) => {
      // FHIR clients send application/fhir+json (and old ones application/json+fhir).
      // An empty body is left to the handlers: a DELETE or GET with a Content-Type but no body is
      // answered by what it asks for, and an empty POST gets "not a resource" from the parser.
      const json = fhir.getDefaultJsonParser('error', 'error')
      fhir.removeContentTypeParser('application/json')
      fhir.addContentTypeParser(
        ['application/json', 'application/fhir+json', 'application/json+fhir'],
        { parseAs: 'string' },
        (request, body, done) => {
          if (body === '' || (typeof body === 'string' && body.trim() === '')) done(null, undefined)
          else json(request, body as string, done)
        },
      )
      fhir.setErrorHandler(fhirErrorHandler)
      const notFound = async (request: FastifyRequest, reply: FastifyReply) => {
        const type = /^\/fhir\/([A-Z][A-Za-z]+)(?:[/?]|$)/.exec(request.url)?.[1]
        if (type && type !== 'DiagnosticReport') {
          return sendOutcome(reply, 404, [
            {
              code: 'not-supported',
              diagnostics: `本服务只接收 DiagnosticReport 资源，不支持 ${type}`,
            },
          ])
        }
        return sendOutcome(reply, 404, [
          { code: 'not-found', diagnostics: '地址不存在，可用接口见 /fhir/metadata' },
        ])
      }
      fhir.setNotFoundHandler(notFound)
      // The H5 app's catch-all route (plugins/web.ts) would otherwise answer unknown /fhir paths
      // with index.html for a browser; these more specific routes keep them OperationOutcomes.
      const anyMethod = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const
      fhir.route({ method: [...anyMethod], url: '/', handler: notFound, schema: { hide: true } })
      fhir.route({ method: [...anyMethod], url: '/*', handler: notFound, schema: { hide: true } })
      fhir.addHook('onRequest', async (request) => checkFormat(request))

      fhir.get('/metadata', { schema: { hide: true } }, async (request, reply) =>
        reply.type(FHIR_JSON).send(capabilityStatement(baseUrl(request))),
      )

      const guarded = { preHandler: hospitalAuth(), schema: { hide: true } }

      const answer = async (
        request: FastifyRequest,
        reply: FastifyReply,
        report: ReportsTable,
        exam: ExamsTable,
        status: number,
      ) => {
        versionHeaders(reply, request, report).code(status).type(FHIR_JSON)
        const prefer = [request.headers.prefer ?? ''].flat().join(',')
        if (/return=minimal/.test(prefer)) return reply.send('')
        if (/return=OperationOutcome/i.test(prefer)) {
          return reply.send(
            operationOutcome([
              {
                severity: 'information',
                code: 'informational',
                diagnostics: `报告已保存（版本 ${report.version}）`,
              },
            ]),
          )
        }
        return reply.send(renderReport(report.resource_json, exam, fhir.personalCipher))
      }

      fhir.post('/DiagnosticReport', guarded, async (request, reply) => {
        const { write } = parseDiagnosticReport(request.body, fhir.now())
        const saved = await saveHospitalReport(
          fhir.db,
          fhir.personalCipher,
          request.hospital!.id,
          write,
          {},
          fhir.now(),
        )
        request.log.info(
          { reportId: saved.report.id, version: saved.report.version, outcome: saved.outcome },
          'fhir report stored',
        )
        await sendSubscribeNotices(fhir.providers.subscribe, request.log, saved.notices)
        return answer(
          request,
          reply,
          saved.report,
          saved.exam,
          saved.outcome === 'created' ? 201 : 200,
        )
      })

      fhir.put<IdParams>('/DiagnosticReport/:id', guarded, async (request, reply) => {
        const body = request.body as { id?: unknown } | undefined
        const { write } = parseDiagnosticReport(body, fhir.now())
        const expected = expectedVersion(request)
        const ifMatch = expected === undefined ? {} : { expectedVersion: expected }
        if (body?.id !== request.params.id) {
          throw fhirError(
            400,
            'invalid',
            body?.id === undefined
              ? 'DiagnosticReport.id 缺失：更新时资源须带 id，且与地址中的 id 一致'
              : 'DiagnosticReport.id 与地址中的 id 不一致',
            'DiagnosticReport.id',
          )
        }
        const saved = await saveHospitalReport(
          fhir.db,
          fhir.personalCipher,
          request.hospital!.id,
          write,
          { reportId: request.params.id, ...ifMatch },
          fhir.now(),
        )
        request.log.info(
          { reportId: saved.report.id, version: saved.report.version, outcome: saved.outcome },
          'fhir report stored',
        )
        await sendSubscribeNotices(fhir.providers.subscribe, request.log, saved.notices)
        return answer(request, reply, saved.report, saved.exam, 200)
      })

      fhir.get<IdParams>('/DiagnosticReport/:id', guarded, async (request, reply) => {
        const { report, exam } = await findHospitalReport(
          fhir.db,
          request.hospital!.id,
          request.params.id,
        )
        return answer(request, reply, report, exam, 200)
      })

      fhir.get<VersionParams>(
        '/DiagnosticReport/:id/_history/:vid',
        guarded,
        async (request, reply) => {
          const { report, exam } = await findHospitalReport(
            fhir.db,
            request.hospital!.id,
            request.params.id,
          )
          const version = (await reportVersions(fhir.db, report.id)).find(
            (row) => String(row.version) === request.params.vid,
          )
          if (!version) {
            throw fhirError(404, 'not-found', `该报告没有版本 ${request.params.vid.slice(0, 12)}`)
          }
          return reply
            .header('etag', etag(version.version))
            .header('last-modified', new Date(version.recorded_at).toUTCString())
            .type(FHIR_JSON)
            .send(renderReport(version.resource_json, exam, fhir.personalCipher))
        },
      )

      fhir.get<IdParams>('/DiagnosticReport/:id/_history', guarded, async (request, reply) => {
        const { report, exam } = await findHospitalReport(
          fhir.db,
          request.hospital!.id,
          request.params.id,
        )
        const versions = await reportVersions(fhir.db, report.id)
        const base = baseUrl(request)
        return reply.type(FHIR_JSON).send({
          resourceType: 'Bundle',
          type: 'history',
          total: versions.length,
          link: [{ relation: 'self', url: `${base}/DiagnosticReport/${report.id}/_history` }],
          entry: versions.map((version) => ({
            fullUrl: `${base}/DiagnosticReport/${report.id}`,
            resource: renderReport(version.resource_json, exam, fhir.personalCipher),
            request:
              version.version === 1
                ? { method: 'POST', url: 'DiagnosticReport' }
                : { method: 'PUT', url: `DiagnosticReport/${report.id}` },
            response: {
              status: version.version === 1 ? '201 Created' : '200 OK',
              etag: etag(version.version),
              lastModified: version.recorded_at,
            },
          })),
        })
      })

      fhir.get('/DiagnosticReport', guarded, async (request, reply) => {
        const query = (request.query ?? {}) as Query
        const search = parseSearch(query, fhir.now())
        const { total, rows } = await searchHospitalReports(
          fhir.db,
          fhir.personalCipher,
          request.hospital!.id,
          search,
        )
        const base = baseUrl(request)
        const page = search.count || DEFAULT_COUNT
        const link = [
          { relation: 'self', url: pageUrl(request, query, search.offset, search.count) },
        ]
        if (search.count > 0 && search.offset + search.count < total) {
          link.push({ relation: 'next', url: pageUrl(request, query, search.offset + page, page) })
        }
        if (search.count > 0 && search.offset > 0) {
          const previous = Math.max(0, search.offset - page)
          link.push({ relation: 'previous', url: pageUrl(request, query, previous, page) })
        }
        return reply.type(FHIR_JSON).send({
          resourceType: 'Bundle',
          type: 'searchset',
          total,
          link,
          entry: rows.map(({ report, exam }) => ({
            fullUrl: `${base}/DiagnosticReport/${report.id}`,
            resource: renderReport(report.resource_json, exam, fhir.personalCipher),
            search: { mode: 'match' },
          })),
        })
      })

      // Reports are never deleted over FHIR: a released one is corrected by a new version, so
      // what a patient already read stays on record.
      const noDelete = async () => {
        throw fhirError(
          405,
          'not-supported',
          '不支持删除报告：请以 status 为 amended 或 corrected 提交更正后的版本（历史版本会保留）',
        )
      }
      fhir.delete('/DiagnosticReport/:id', guarded, noDelete)
      fhir.patch('/DiagnosticReport/:id', guarded, async () => {
        throw fhirError(405, 'not-supported', '不支持 PATCH：请以 PUT 提交完整的 DiagnosticReport')
      })
    },
    { prefix: FHIR_PREFIX },
  )
}
