import { readFileSync } from 'node:fs'
import { isIP } from 'node:net'
import type { FastifyBaseLogger } from 'fastify'

/**
 * Where a public address is, city level at most (issue 9: the place of a view). The provider answers
 * a place for a public IPv4 address, or null when it does not know; what the address itself says
 * (本机, 局域网) is client-info.ts's, and "not known" is said there as 未知位置.
 */
export interface GeoLocator {
  place(ip: string): string | null
}

/** No address database configured: no place is ever guessed. */
export const noGeoLocator: GeoLocator = { place: () => null }

/*
 * ip2region's xdb format (Apache-2.0, github.com/lionsoul2014/ip2region), IPv4 files of structure
 * 2.0 and 3.0: a 256-byte header (u16 structure, u16 index policy, u32 created, u32 first and last
 * segment index pointers, and from 3.0 u16 IP version), then a 256×256 vector index of (u32 start,
 * u32 end) segment pointers by the address's first two bytes, then 14-byte segments (u32 first and
 * last address, u16 region length, u32 region pointer), all little-endian; regions are UTF-8
 * 国家|区域|省份|城市|ISP (2.0) or 国家|省份|城市|ISP (3.0), with 0 for unknown.
 */
const HEADER_BYTES = 256
const VECTOR_COLS = 256
const VECTOR_ENTRY = 8
const SEGMENT_BYTES = 14
const STRUCTURE_20 = 2
const STRUCTURE_30 = 3
const IPV4 = 4

export class GeoDatabaseError extends Error {
  override name = 'GeoDatabaseError'
}

function ipv4Number(ip: string): number | null {
  const address = ip.replace(/^::ffff:/i, '')
  if (isIP(address) !== 4) return null
  return address.split('.').reduce((value, part) => value * 256 + Number(part), 0)
}

/** 国家|区域|省份|城市|ISP → 广东省深圳市 (China) or the country (abroad); null when unknown. */
export function placeOfRegion(region: string): string | null {
  const parts = region.split('|').map((part) => (part === '0' ? '' : part.trim()))
  // 2.0 has a 区域 field after the country; 3.0 does not.
  const [country, province, city] =
    parts.length >= 5 ? [parts[0], parts[2], parts[3]] : [parts[0], parts[1], parts[2]]
  if (!country || /内网|保留/.test(region)) return null
  if (country !== '中国') return country
  if (!province) return '中国'
  // 北京市|北京市: a municipality is said once.
  return city && city !== province ? `${province}${city}` : province
}

/** A locator over a whole xdb file held in memory (about 11 MB): each look-up a binary search. */
export function xdbLocator(content: Buffer): GeoLocator {
  if (content.length < HEADER_BYTES + VECTOR_COLS * VECTOR_COLS * VECTOR_ENTRY) {
    throw new GeoDatabaseError('文件太短，不是 ip2region xdb 文件')
  }
  const structure = content.readUInt16LE(0)
  if (structure !== STRUCTURE_20 && structure !== STRUCTURE_30) {
    throw new GeoDatabaseError(`不支持的 xdb 结构版本 ${structure}`)
  }
  if (structure === STRUCTURE_30 && content.readUInt16LE(16) !== IPV4) {
    throw new GeoDatabaseError('只支持 IPv4 的 xdb 文件')
  }
  const firstSegment = content.readUInt32LE(8)
  const lastSegment = content.readUInt32LE(12)
  if (
    firstSegment < HEADER_BYTES ||
    lastSegment + SEGMENT_BYTES > content.length ||
    firstSegment > lastSegment ||
    (lastSegment - firstSegment) % SEGMENT_BYTES !== 0
  ) {
    throw new GeoDatabaseError('xdb 索引指针不正确，文件可能已损坏')
  }
  const regionOf = (ip: number): string | null => {
    const vector =
      HEADER_BYTES + (Math.floor(ip / 2 ** 24) * VECTOR_COLS + ((ip >>> 16) & 0xff)) * VECTOR_ENTRY
    const start = content.readUInt32LE(vector)
    const end = content.readUInt32LE(vector + 4)
    if (start === 0 || end === 0 || end + SEGMENT_BYTES > content.length) return null
    let low = 0
    let high = (end - start) / SEGMENT_BYTES
    while (low <= high) {
      const middle = (low + high) >> 1
      const at = start + middle * SEGMENT_BYTES
      if (ip < content.readUInt32LE(at)) high = middle - 1
      else if (ip > content.readUInt32LE(at + 4)) low = middle + 1
      else {
        const length = content.readUInt16LE(at + 8)
        const pointer = content.readUInt32LE(at + 10)
        if (length === 0 || pointer + length > content.length) return null
        return content.toString('utf8', pointer, pointer + length)
      }
    }
    return null
  }
  return {
    place(ip) {
      const number = ipv4Number(ip)
      if (number === null) return null
      const region = regionOf(number)
      return region === null ? null : placeOfRegion(region)
    },
  }
}

/**
 * The configured locator: GEOIP_XDB's file, or none. A missing or broken file does not stop the
 * server (places then say 未知位置), but the log says why at start.
 */
export function loadGeoLocator(file: string | null, log: FastifyBaseLogger): GeoLocator {
  if (!file) return noGeoLocator
  try {
    return xdbLocator(readFileSync(file))
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    log.warn({ file }, `GEOIP_XDB 无法使用（${reason}）：查看记录的地点将显示为未知位置`)
    return noGeoLocator
  }
}
