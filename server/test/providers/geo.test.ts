import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, test } from 'node:test'
import { describeLocation } from '../../src/domain/client-info'
import {
  GeoDatabaseError,
  loadGeoLocator,
  noGeoLocator,
  placeOfRegion,
  xdbLocator,
} from '../../src/providers/geo'
import { sharingWorld } from '../sharing/support'

/*
 * The place of an address through an ip2region xdb file (issue 9, city level at most). The test
 * writes its own small xdb with the format's layout (header, 256×256 vector index, 14-byte segments,
 * regions), so the reader is checked against the format rather than against itself.
 */

interface Range {
  first: string
  last: string
  region: string
}

const toNumber = (ip: string) =>
  ip.split('.').reduce((value, part) => value * 256 + Number(part), 0)

/** A minimal xdb maker: segments split at /16 boundaries, as ip2region's own maker does. */
function makeXdb(ranges: Range[], structure: 2 | 3 = 2): Buffer {
  const header = Buffer.alloc(256)
  const vector = Buffer.alloc(256 * 256 * 8)
  const regions: Buffer[] = []
  const regionAt = new Map<string, { offset: number; length: number }>()
  let offset = header.length + vector.length
  for (const { region } of ranges) {
    if (regionAt.has(region)) continue
    const bytes = Buffer.from(region, 'utf8')
    regionAt.set(region, { offset, length: bytes.length })
    regions.push(bytes)
    offset += bytes.length
  }
  const segments: Buffer[] = []
  const firstSegment = offset
  for (const range of ranges) {
    let start = toNumber(range.first)
    const end = toNumber(range.last)
    while (start <= end) {
      const blockEnd = Math.min(end, Math.floor(start / 65536) * 65536 + 65535)
      const segment = Buffer.alloc(14)
      segment.writeUInt32LE(start, 0)
      segment.writeUInt32LE(blockEnd, 4)
      const data = regionAt.get(range.region)!
      segment.writeUInt16LE(data.length, 8)
      segment.writeUInt32LE(data.offset, 10)
      const pointer = firstSegment + segments.length * 14
      const key = Math.floor(start / 65536) * 8
      if (vector.readUInt32LE(key) === 0) vector.writeUInt32LE(pointer, key)
      vector.writeUInt32LE(pointer, key + 4)
      segments.push(segment)
      start = blockEnd + 1
    }
  }
  header.writeUInt16LE(structure, 0)
  header.writeUInt16LE(1, 2)
  header.writeUInt32LE(1_700_000_000, 4)
  header.writeUInt32LE(firstSegment, 8)
  header.writeUInt32LE(firstSegment + (segments.length - 1) * 14, 12)
  if (structure === 3) {
    header.writeUInt16LE(4, 16)
    header.writeUInt16LE(4, 18)
  }
  return Buffer.concat([header, vector, ...regions, ...segments])
}

const RANGES: Range[] = [
  { first: '1.0.0.0', last: '1.0.0.255', region: '澳大利亚|0|0|0|0' },
  { first: '36.110.0.0', last: '36.110.255.255', region: '中国|0|北京市|北京市|电信' },
  // Spans two /16 blocks: the maker splits it, the reader must find both halves.
  { first: '113.118.128.0', last: '113.119.127.255', region: '中国|0|广东省|深圳市|电信' },
  { first: '192.168.0.0', last: '192.168.255.255', region: '0|0|0|内网IP|内网IP' },
]

describe('GeoLocator over an ip2region xdb', () => {
  test('regions become a province and city, a municipality once, abroad the country', () => {
    assert.equal(placeOfRegion('中国|0|广东省|深圳市|电信'), '广东省深圳市')
    assert.equal(placeOfRegion('中国|广东省|深圳市|移动'), '广东省深圳市')
    assert.equal(placeOfRegion('中国|0|北京市|北京市|联通'), '北京市')
    assert.equal(placeOfRegion('中国|0|0|0|0'), '中国')
    assert.equal(placeOfRegion('美国|0|加利福尼亚|洛杉矶|0'), '美国')
    assert.equal(placeOfRegion('0|0|0|内网IP|内网IP'), null)
    assert.equal(placeOfRegion('0|0|0|0|0'), null)
  })

  test('look-ups hit the first and last address of a range, and nothing outside', () => {
    const geo = xdbLocator(makeXdb(RANGES))
    assert.equal(geo.place('113.118.128.0'), '广东省深圳市')
    assert.equal(geo.place('113.118.255.255'), '广东省深圳市')
    assert.equal(geo.place('113.119.0.0'), '广东省深圳市')
    assert.equal(geo.place('113.119.127.255'), '广东省深圳市')
    assert.equal(geo.place('113.119.128.0'), null)
    assert.equal(geo.place('113.118.127.255'), null)
    assert.equal(geo.place('36.110.3.4'), '北京市')
    assert.equal(geo.place('1.0.0.7'), '澳大利亚')
    assert.equal(geo.place('::ffff:36.110.3.4'), '北京市')
    assert.equal(geo.place('2001:db8::1'), null)
    assert.equal(geo.place('not an address'), null)
  })

  test('structure 3.0 files of IPv4 read the same; other files are refused with a reason', () => {
    const geo = xdbLocator(
      makeXdb(
        [{ first: '113.118.0.0', last: '113.118.255.255', region: '中国|广东省|深圳市|移动' }],
        3,
      ),
    )
    assert.equal(geo.place('113.118.1.1'), '广东省深圳市')
    assert.throws(() => xdbLocator(Buffer.alloc(1000)), GeoDatabaseError)
    const broken = makeXdb(RANGES)
    broken.writeUInt16LE(9, 0)
    assert.throws(() => xdbLocator(broken), /结构版本 9/)
    const truncated = makeXdb(RANGES).subarray(0, 256 + 256 * 256 * 8 + 10)
    assert.throws(() => xdbLocator(truncated), GeoDatabaseError)
  })

  test('describeLocation: the address’s own meaning first, then the city, else 未知位置', () => {
    const geo = xdbLocator(makeXdb(RANGES))
    assert.equal(describeLocation('192.168.1.2', geo), '局域网')
    assert.equal(describeLocation('127.0.0.1', geo), '本机')
    assert.equal(describeLocation('113.118.200.1', geo), '广东省深圳市')
    assert.equal(describeLocation('8.8.8.8', geo), '未知位置')
    assert.equal(describeLocation('113.118.200.1'), '未知位置')
    assert.equal(describeLocation('2400:da00::1', geo), '未知位置')
  })

  test('a missing or broken file starts without places and says why', () => {
    const warnings: string[] = []
    const log = { warn: (_: unknown, message: string) => warnings.push(message) }
    const broken = path.join(os.tmpdir(), `geo-${randomUUID()}.xdb`)
    writeFileSync(broken, Buffer.alloc(64))
    for (const file of [broken, path.join(os.tmpdir(), `missing-${randomUUID()}.xdb`)]) {
      assert.equal(loadGeoLocator(file, log as never), noGeoLocator)
    }
    assert.equal(warnings.length, 2)
    assert.ok(warnings.every((w) => w.includes('GEOIP_XDB') && w.includes('未知位置')))
    assert.equal(loadGeoLocator(null, log as never), noGeoLocator)
  })

  test('a view through a grant is logged with the city of the viewer’s address', async () => {
    const file = path.join(os.tmpdir(), `geo-${randomUUID()}.xdb`)
    writeFileSync(file, makeXdb(RANGES))
    const w = await sharingWorld({ geoipXdb: file })
    const made = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [w.study.examId],
      reportIds: [],
      duration: '1h',
    })
    const opened = await w.call('POST', `/main/shares/${made.data.link.token}/open`, undefined, {})
    const read = await w.app.inject({
      method: 'GET',
      url: `/main/shared/${made.data.grant.id}/exams/${w.study.examId}`,
      headers: { authorization: `Bearer ${opened.data.accessToken}` },
      remoteAddress: '113.118.200.1',
    })
    assert.equal(read.statusCode, 200, read.body)
    const views = await w.call('GET', `/main/grants/${made.data.grant.id}/views`, w.alice.token)
    assert.deepEqual(
      views.data.map((v: { place: string }) => v.place),
      ['广东省深圳市'],
    )
  })
})
