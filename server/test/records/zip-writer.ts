import { deflateRawSync } from 'node:zlib'

/**
 * A tiny zip writer for tests (PKWARE APPNOTE 4.3, no zip64): every field a crafted archive lies
 * about is in the test's hands (names with `..` or backslashes, Unix symlink modes, the encryption
 * flag, declared sizes smaller than the data), which no real zip tool would produce.
 */
export interface ZipItem {
  name: string | Buffer
  data?: Buffer
  /** 8 = deflate (default), 0 = stored, anything else is written as is with raw data. */
  method?: number
  /** Unix mode (e.g. 0o120777 for a symlink, 0o040755 for a folder); made by Unix when given. */
  unixMode?: number
  /** General purpose flags (bit 0 = encrypted, bit 11 = UTF-8 names; UTF-8 is set by default). */
  flags?: number
  /** Declared uncompressed size instead of the true one (a lying header). */
  declaredSize?: number
  /** Already compressed bytes to store as the entry's data (with `method` and `declaredSize`). */
  raw?: Buffer
}

const CRC_TABLE = (() => {
  const table = new Uint32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c >>> 0
  }
  return table
})()

export function crc32(data: Buffer): number {
  let crc = 0xffffffff
  for (let i = 0; i < data.length; i++) crc = CRC_TABLE[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}

export function writeZip(items: ZipItem[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const item of items) {
    const name = typeof item.name === 'string' ? Buffer.from(item.name, 'utf8') : item.name
    const data = item.data ?? Buffer.alloc(0)
    const method = item.method ?? 8
    const body = item.raw ?? (method === 8 ? deflateRawSync(data) : data)
    const size = item.declaredSize ?? data.length
    const crc = crc32(data)
    const flags = item.flags ?? 0x800

    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(flags, 6)
    local.writeUInt16LE(method, 8)
    local.writeUInt16LE(0, 10)
    local.writeUInt16LE(0x21, 12)
    local.writeUInt32LE(crc, 14)
    local.writeUInt32LE(body.length, 18)
    local.writeUInt32LE(size, 22)
    local.writeUInt16LE(name.length, 26)
    local.writeUInt16LE(0, 28)
    locals.push(local, name, body)

    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(item.unixMode !== undefined ? (3 << 8) | 20 : 20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(flags, 8)
    central.writeUInt16LE(method, 10)
    central.writeUInt16LE(0, 12)
    central.writeUInt16LE(0x21, 14)
    central.writeUInt32LE(crc, 16)
    central.writeUInt32LE(body.length, 20)
    central.writeUInt32LE(size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(item.unixMode !== undefined ? (item.unixMode << 16) >>> 0 : 0, 38)
    central.writeUInt32LE(offset, 42)
    centrals.push(central, name)
    offset += local.length + name.length + body.length
  }
  const directory = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(items.length, 8)
  end.writeUInt16LE(items.length, 10)
  end.writeUInt32LE(directory.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, directory, end])
}
