import type { DicomJson, DicomJsonAttribute } from '../../dicom'
import type { PersonNameJson } from '../../dicom/json'
import { badRequest } from '../../http/errors'

/*
 * QIDO-RS query parameters (PS3.18 8.3.4) and attribute matching (PS3.4 C.2.2.2): single value,
 * list (comma or backslash separated, any of them), wildcard (* and ?) for text, range for dates
 * and times ("20240101-20240131", "-20240131", "20240101-"), universal (an empty value: just
 * return the attribute). Everything a client can get wrong is a 400 in Chinese; nothing here
 * touches the database.
 */

export type QidoLevel = 'study' | 'series' | 'instance'

interface AttributeDef {
  keyword: string
  tag: string
  vr: string
  level: QidoLevel
}

/** The attributes QIDO names by keyword, with the level each belongs to. Hex tags work for any. */
const ATTRIBUTES: AttributeDef[] = [
  ['SpecificCharacterSet', '00080005', 'CS', 'study'],
  ['StudyDate', '00080020', 'DA', 'study'],
  ['StudyTime', '00080030', 'TM', 'study'],
  ['AccessionNumber', '00080050', 'SH', 'study'],
  ['InstanceAvailability', '00080056', 'CS', 'study'],
  ['ModalitiesInStudy', '00080061', 'CS', 'study'],
  ['InstitutionName', '00080080', 'LO', 'study'],
  ['ReferringPhysicianName', '00080090', 'PN', 'study'],
  ['TimezoneOffsetFromUTC', '00080201', 'SH', 'study'],
  ['RetrieveURL', '00081190', 'UR', 'study'],
  ['StudyDescription', '00081030', 'LO', 'study'],
  ['PatientName', '00100010', 'PN', 'study'],
  ['PatientID', '00100020', 'LO', 'study'],
  ['IssuerOfPatientID', '00100021', 'LO', 'study'],
  ['PatientBirthDate', '00100030', 'DA', 'study'],
  ['PatientSex', '00100040', 'CS', 'study'],
  ['OtherPatientIDs', '00101000', 'LO', 'study'],
  ['PatientAge', '00101010', 'AS', 'study'],
  ['StudyInstanceUID', '0020000D', 'UI', 'study'],
  ['StudyID', '00200010', 'SH', 'study'],
  ['NumberOfStudyRelatedSeries', '00201206', 'IS', 'study'],
  ['NumberOfStudyRelatedInstances', '00201208', 'IS', 'study'],
  ['Modality', '00080060', 'CS', 'series'],
  ['SeriesDate', '00080021', 'DA', 'series'],
  ['SeriesTime', '00080031', 'TM', 'series'],
  ['SeriesDescription', '0008103E', 'LO', 'series'],
  ['BodyPartExamined', '00180015', 'CS', 'series'],
  ['SeriesInstanceUID', '0020000E', 'UI', 'series'],
  ['SeriesNumber', '00200011', 'IS', 'series'],
  ['Laterality', '00200060', 'CS', 'series'],
  ['NumberOfSeriesRelatedInstances', '00201209', 'IS', 'series'],
  ['PerformedProcedureStepStartDate', '00400244', 'DA', 'series'],
  ['PerformedProcedureStepStartTime', '00400245', 'TM', 'series'],
  ['RequestAttributesSequence', '00400275', 'SQ', 'series'],
  ['ImageType', '00080008', 'CS', 'instance'],
  ['SOPClassUID', '00080016', 'UI', 'instance'],
  ['SOPInstanceUID', '00080018', 'UI', 'instance'],
  ['ContentDate', '00080023', 'DA', 'instance'],
  ['ContentTime', '00080033', 'TM', 'instance'],
  ['AcquisitionNumber', '00200012', 'IS', 'instance'],
  ['InstanceNumber', '00200013', 'IS', 'instance'],
  ['NumberOfFrames', '00280008', 'IS', 'instance'],
  ['Rows', '00280010', 'US', 'instance'],
  ['Columns', '00280011', 'US', 'instance'],
  ['BitsAllocated', '00280100', 'US', 'instance'],
].map(([keyword, tag, vr, level]) => ({ keyword, tag, vr, level }) as AttributeDef)

const BY_KEYWORD = new Map(ATTRIBUTES.map((a) => [a.keyword.toLowerCase(), a]))
const BY_TAG = new Map(ATTRIBUTES.map((a) => [a.tag, a]))

/** What each level answers by default (PS3.18 Table 6.7.1-2, -2a, -2b, plus descriptions). */
export const DEFAULT_TAGS: Record<QidoLevel, string[]> = {
  study: [
    '00080005',
    '00080020',
    '00080030',
    '00080050',
    '00080056',
    '00080061',
    '00080090',
    '00081030',
    '00081190',
    '00100010',
    '00100020',
    '00100030',
    '00100040',
    '0020000D',
    '00200010',
    '00201206',
    '00201208',
  ],
  series: [
    '00080005',
    '00080021',
    '00080031',
    '00080056',
    '00080060',
    '0008103E',
    '00081190',
    '00180015',
    '0020000E',
    '00200011',
    '00201209',
    '00400244',
    '00400245',
    '00400275',
  ],
  instance: [
    '00080005',
    '00080008',
    '00080016',
    '00080018',
    '00080056',
    '00081190',
    '00200013',
    '00280008',
    '00280010',
    '00280011',
    '00280100',
  ],
}

const LEVEL_RANK: Record<QidoLevel, number> = { study: 0, series: 1, instance: 2 }

export interface QidoFilter {
  tag: string
  keyword: string
  vr: string
  /** Empty value: return the attribute, match everything. */
  universal: boolean
  /** Any of these (exact or with wildcards). */
  values: string[]
  /** Dates and times: inclusive bounds in DICOM form (YYYYMMDD, HHMMSS). */
  range?: { from?: string; to?: string }
}

export interface QidoQuery {
  filters: QidoFilter[]
  /** includefield=all */
  includeAll: boolean
  /** Tags asked by includefield and by matching keys (which are always returned). */
  includeTags: Set<string>
  limit: number
  offset: number
  /** Explicit limit given by the client (else the level's default applies and a cut is warned). */
  limitGiven: boolean
  /** 299 warnings (PS3.18 8.3.4.6): fuzzy matching not offered. */
  warnings: string[]
}

export const DEFAULT_LIMIT: Record<QidoLevel, number> = { study: 500, series: 1000, instance: 5000 }
export const MAX_LIMIT = 5000

const UID = /^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*))*$/
/** Real-world UIDs sometimes carry leading zeros in a component; we accept them in paths and keys. */
const LENIENT_UID = /^[0-9]+(\.[0-9]+)*$/

export function isUid(value: string): boolean {
  return value.length > 0 && value.length <= 64 && (UID.test(value) || LENIENT_UID.test(value))
}

const UID_NAMES: Record<string, string> = {
  study: '检查编号（StudyInstanceUID）',
  series: '序列编号（SeriesInstanceUID）',
  instance: '图像编号（SOPInstanceUID）',
}

/** A UID from a URL path, or 400 naming which one is malformed. */
export function pathUid(value: string, which: 'study' | 'series' | 'instance'): string {
  if (!isUid(value))
    throw badRequest(`${UID_NAMES[which]}格式不正确：应为以点分隔的数字，最长 64 位`)
  return value
}

const DATE = /^(\d{4})(\d{2})(\d{2})$/
const TIME = /^([01]\d|2[0-3])([0-5]\d)?([0-5]\d)?(\.\d{1,6})?$/

function validDate(value: string): boolean {
  // Older clients send dates with dashes or dots (ACR-NEMA style); PS3.18 wants YYYYMMDD.
  const match = DATE.exec(value)
  if (!match) return false
  const [, y, m, d] = match.map(Number) as [number, number, number, number]
  const date = new Date(Date.UTC(y, m - 1, d))
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d
}

/** HHMMSS with missing parts filled, so times compare as strings. */
function normaliseTime(value: string, fill: '0' | '9'): string {
  const [whole = ''] = value.split('.')
  const pad = fill === '0' ? '000000' : '235959'
  return whole + pad.slice(whole.length)
}

function parseRange(
  value: string,
  vr: 'DA' | 'TM',
  keyword: string,
): { from?: string; to?: string } {
  const [fromText = '', toText = '', ...rest] = value.split('-')
  const valid = vr === 'DA' ? validDate : (text: string) => TIME.test(text)
  const example = vr === 'DA' ? '20240101-20240131' : '080000-120000'
  if (rest.length > 0 || (!fromText && !toText)) {
    throw badRequest(`查询条件 ${keyword} 的范围格式不正确，示例：${example}`)
  }
  for (const part of [fromText, toText]) {
    if (part && !valid(part)) {
      throw badRequest(
        vr === 'DA'
          ? `查询条件 ${keyword} 的日期格式不正确，应为 YYYYMMDD（如 20240131）`
          : `查询条件 ${keyword} 的时间格式不正确，应为 HHMMSS（如 083000）`,
      )
    }
  }
  const from = fromText ? (vr === 'TM' ? normaliseTime(fromText, '0') : fromText) : undefined
  const to = toText ? (vr === 'TM' ? normaliseTime(toText, '9') : toText) : undefined
  if (from && to && from > to) throw badRequest(`查询条件 ${keyword} 的起始值晚于结束值`)
  return { ...(from ? { from } : {}), ...(to ? { to } : {}) }
}

function attributeOf(key: string): AttributeDef | undefined {
  if (/^[0-9A-Fa-f]{8}$/.test(key)) {
    const tag = key.toUpperCase()
    // A tag we do not list is matched against whatever the level's rows carry.
    return BY_TAG.get(tag) ?? { keyword: tag, tag, vr: 'UN', level: 'study' }
  }
  return BY_KEYWORD.get(key.toLowerCase())
}

function single(key: string, value: unknown): string {
  if (Array.isArray(value)) {
    // Repeated keys mean "any of these", like a comma list.
    return value.map((v) => single(key, v)).join(',')
  }
  if (typeof value !== 'string') throw badRequest(`查询参数 ${key} 的值无效`)
  return value
}

function integer(key: string, text: string, min: number, max: number, hint: string): number {
  if (!/^\d{1,9}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw badRequest(`查询参数 ${key} 应为${hint}`)
  }
  return Number(text)
}

const CONTROL_PARAMS = new Set(['limit', 'offset', 'includefield', 'fuzzymatching'])

/**
 * Parses a QIDO query string (Fastify's parsed object: repeated keys are arrays) for a level.
 * A matching key of a lower level than the query (Modality on /studies) is refused with a hint,
 * because a study has many series and a guess would silently drop studies.
 */
export function parseQidoQuery(query: Record<string, unknown>, level: QidoLevel): QidoQuery {
  const result: QidoQuery = {
    filters: [],
    includeAll: false,
    includeTags: new Set(),
    limit: DEFAULT_LIMIT[level],
    offset: 0,
    limitGiven: false,
    warnings: [],
  }
  for (const [rawKey, rawValue] of Object.entries(query)) {
    const key = rawKey.trim()
    const lower = key.toLowerCase()
    if (CONTROL_PARAMS.has(lower)) {
      if (Array.isArray(rawValue) && lower !== 'includefield') {
        throw badRequest(`查询参数 ${key} 只能出现一次`)
      }
      const value = single(key, rawValue).trim()
      if (lower === 'limit') {
        result.limit = integer(key, value, 1, MAX_LIMIT, ` 1 到 ${MAX_LIMIT} 之间的整数`)
        result.limitGiven = true
      } else if (lower === 'offset') {
        result.offset = integer(key, value, 0, 100_000_000, '不小于 0 的整数')
      } else if (lower === 'fuzzymatching') {
        if (value !== 'true' && value !== 'false') {
          throw badRequest('查询参数 fuzzymatching 应为 true 或 false')
        }
        if (value === 'true') {
          result.warnings.push(
            '299 yingxiang "The fuzzymatching parameter is not supported. Only literal matching has been performed."',
          )
        }
      } else {
        for (const field of value
          .split(',')
          .map((f) => f.trim())
          .filter(Boolean)) {
          if (field.toLowerCase() === 'all') {
            result.includeAll = true
            continue
          }
          const attribute = attributeOf(field)
          if (!attribute) throw badRequest(`includefield 中的属性无法识别：${field}`)
          result.includeTags.add(attribute.tag)
        }
      }
      continue
    }
    if (key.includes('.')) {
      throw badRequest(`暂不支持按序列内的属性查询：${key}`)
    }
    const attribute = attributeOf(key)
    if (!attribute) throw badRequest(`无法识别的查询参数：${key}`)
    if (LEVEL_RANK[attribute.level] > LEVEL_RANK[level]) {
      const hint = attribute.keyword === 'Modality' ? '，按检查类型查询请用 ModalitiesInStudy' : ''
      throw badRequest(`该级别的查询不支持条件 ${attribute.keyword}${hint}`)
    }
    result.includeTags.add(attribute.tag)
    result.filters.push(parseFilter(attribute, single(key, rawValue)))
  }
  return result
}

function parseFilter(attribute: AttributeDef, raw: string): QidoFilter {
  const value = raw.trim()
  const base = { tag: attribute.tag, keyword: attribute.keyword, vr: attribute.vr }
  if (value === '' || value === '*') return { ...base, universal: true, values: [] }
  if (value.length > 1024) throw badRequest(`查询条件 ${attribute.keyword} 过长`)
  if (attribute.vr === 'SQ') throw badRequest(`暂不支持按序列属性 ${attribute.keyword} 查询`)
  if ((attribute.vr === 'DA' || attribute.vr === 'TM') && value.includes('-')) {
    return {
      ...base,
      universal: false,
      values: [],
      range: parseRange(value, attribute.vr, attribute.keyword),
    }
  }
  const values = value
    .split(attribute.vr === 'UI' ? /[,\\]/ : /,/)
    .map((v) => v.trim())
    .filter(Boolean)
  if (values.length === 0) return { ...base, universal: true, values: [] }
  for (const v of values) {
    if (attribute.vr === 'UI' && !isUid(v)) {
      throw badRequest(
        `查询条件 ${attribute.keyword} 不是有效的 UID：应为以点分隔的数字，最长 64 位`,
      )
    }
    if (attribute.vr === 'DA' && !validDate(v)) {
      throw badRequest(
        `查询条件 ${attribute.keyword} 的日期格式不正确，应为 YYYYMMDD（如 20240131）`,
      )
    }
    if (attribute.vr === 'TM' && !TIME.test(v)) {
      throw badRequest(`查询条件 ${attribute.keyword} 的时间格式不正确，应为 HHMMSS（如 083000）`)
    }
    if (['IS', 'US', 'UL', 'SS', 'SL'].includes(attribute.vr) && !/^[+-]?\d{1,10}$/.test(v)) {
      throw badRequest(`查询条件 ${attribute.keyword} 应为整数`)
    }
  }
  return { ...base, universal: false, values }
}

/** A filter the database can apply exactly (no wildcard, not universal). */
export function isExact(filter: QidoFilter): boolean {
  return !filter.universal && !filter.range && filter.values.every((v) => !/[*?]/.test(v))
}

/** Text VRs matched without regard to case (people type names and descriptions loosely). */
const CASELESS_VRS = new Set(['PN', 'LO', 'SH', 'LT', 'ST', 'UT', 'UC'])

function wildcard(pattern: string, caseless: boolean): RegExp {
  const body = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.')
  return new RegExp(`^${body}$`, caseless ? 'iu' : 'u')
}

function textsOf(attribute: DicomJsonAttribute): string[] {
  const out: string[] = []
  for (const value of attribute.Value ?? []) {
    if (value === null || value === undefined) continue
    if (typeof value === 'object') {
      if (attribute.vr === 'PN') {
        for (const part of Object.values(value as PersonNameJson)) {
          if (typeof part !== 'string') continue
          out.push(part)
          // 张^三 is typed 张三: match the name with its component separators dropped too.
          out.push(part.replace(/\^+/g, ' ').trim(), part.replace(/\^/g, ''))
        }
      }
      continue
    }
    out.push(String(value))
  }
  return out
}

/** Whether a row (DICOM JSON) satisfies every filter. */
export function matches(row: DicomJson, filters: QidoFilter[]): boolean {
  return filters.every((filter) => {
    if (filter.universal) return true
    const attribute = row[filter.tag]
    if (!attribute) return false
    const texts = textsOf(attribute)
    if (filter.range) {
      const { from, to } = filter.range
      return texts.some((text) => {
        const v = filter.vr === 'TM' ? normaliseTime(text, '0') : text.replace(/[-.]/g, '')
        return (!from || v >= from) && (!to || v <= to)
      })
    }
    const numeric = ['IS', 'US', 'UL', 'SS', 'SL', 'DS'].includes(filter.vr)
    const caseless = CASELESS_VRS.has(filter.vr)
    return filter.values.some((wanted) => {
      if (numeric) return texts.some((text) => Number(text) === Number(wanted))
      if (/[*?]/.test(wanted)) {
        const pattern = wildcard(wanted, caseless)
        return texts.some((text) => pattern.test(text))
      }
      if (filter.vr === 'TM') {
        return texts.some((text) => normaliseTime(text, '0') === normaliseTime(wanted, '0'))
      }
      return texts.some((text) =>
        caseless ? text.toLowerCase() === wanted.toLowerCase() : text === wanted,
      )
    })
  })
}

/** The attributes a row answers: the level's defaults, includefield, matching keys; all with "all". */
export function project(row: DicomJson, query: QidoQuery, levels: QidoLevel[]): DicomJson {
  const wanted = new Set<string>(query.includeTags)
  if (query.includeAll) {
    // "all" means every attribute of the asked levels, not the pixel module of a study's first image.
    // An instance answers everything it carries (its study and series attributes are its own too).
    const everything = levels.includes('instance')
    for (const tag of Object.keys(row))
      if (everything || levels.includes(tagLevel(tag))) wanted.add(tag)
  }
  for (const level of levels) for (const tag of DEFAULT_TAGS[level]) wanted.add(tag)
  const out: DicomJson = {}
  for (const tag of wanted) {
    const attribute = row[tag]
    if (attribute) out[tag] = attribute
  }
  return sortTags(out)
}

function sortTags(row: DicomJson): DicomJson {
  return Object.fromEntries(Object.entries(row).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
}

/** The level an attribute belongs to: listed ones by the list, the patient group to the study, others to the instance. */
function tagLevel(tag: string): QidoLevel {
  const known = BY_TAG.get(tag)
  if (known) return known.level
  return tag.startsWith('0010') ? 'study' : 'instance'
}
