import { isIP } from 'node:net'
import type { ClientInfo } from '../http/client'
import { type GeoLocator, noGeoLocator } from '../providers/geo'

/**
 * What the server may keep and show about a client: a masked address, a rough place and a short
 * browser/system summary. Enough for a person to recognise their own device in 登录记录 or on the
 * QR confirm page, never the full address or User-Agent (fingerprinting aids).
 */
export type { ClientInfo }

export interface ClientSummary {
  /** 203.0.113.* */
  ipMasked: string
  /** 本机, 局域网, 未知位置 */
  location: string
  /** Chrome 120 · Windows */
  client: string
}

export function summariseClient(client: ClientInfo): ClientSummary {
  return {
    ipMasked: maskIp(client.ip),
    location: describeLocation(client.ip),
    client: describeBrowser(client.userAgent),
  }
}

/**
 * "Chrome 120 · Windows": enough for a person to recognise their own computer, without storing
 * the whole User-Agent.
 */
export function describeBrowser(userAgent: string | undefined): string {
  const ua = userAgent ?? ''
  const browsers: [string, RegExp][] = [
    ['微信', /MicroMessenger\/(\d+)/],
    ['Edge', /Edg(?:e|A|iOS)?\/(\d+)/],
    ['Opera', /OPR\/(\d+)/],
    ['Firefox', /(?:Firefox|FxiOS)\/(\d+)/],
    ['Chrome', /(?:Chrome|CriOS)\/(\d+)/],
    ['Safari', /Version\/(\d+)[\d.]* (?:Mobile\/\S+ )?Safari\//],
  ]
  const systems: [string, RegExp][] = [
    ['Windows', /Windows/],
    ['Android', /Android/],
    ['iOS', /iPhone|iPad|iPod/],
    ['macOS', /Mac OS X|Macintosh/],
    ['ChromeOS', /CrOS/],
    ['Linux', /Linux/],
  ]
  const browser = browsers
    .map(([name, pattern]) => {
      const match = pattern.exec(ua)
      return match ? `${name} ${match[1]}` : undefined
    })
    .find(Boolean)
  const system = systems.find(([, pattern]) => pattern.test(ua))?.[0]
  if (!browser && !system) return '未知浏览器'
  return [browser ?? '未知浏览器', system].filter(Boolean).join(' · ')
}

/** 203.0.113.* / 2001:db8:85a3:8d3:* : the network, not the machine. */
export function maskIp(ip: string): string {
  const v4 = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.\d{1,3}$/i.exec(ip)
  if (v4) return `${v4[1]}.${v4[2]}.${v4[3]}.*`
  if (ip.includes(':')) {
    const groups = ip.split(':').filter((group) => group !== '')
    return `${groups.slice(0, 4).join(':')}:*`
  }
  return '*'
}

/**
 * Where a client is, as far as the server honestly knows, city level at most: what the address
 * itself says (this machine, a private network), else the configured address database's city
 * (providers/geo.ts, GEOIP_XDB), else 未知位置 rather than a guess.
 */
export function describeLocation(ip: string, geo: GeoLocator = noGeoLocator): string {
  const address = ip.replace(/^::ffff:/i, '')
  const kind = isIP(address)
  if (kind === 4) {
    const [a, b] = address.split('.').map(Number) as [number, number]
    if (a === 127) return '本机'
    if (a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168)) return '局域网'
    // Carrier-grade NAT and link-local: not the public internet, but not a home network either.
    if ((a === 100 && b >= 64 && b <= 127) || (a === 169 && b === 254)) return '运营商内网'
    return geo.place(address) ?? '未知位置'
  }
  if (kind === 6) {
    const lower = address.toLowerCase()
    if (lower === '::1') return '本机'
    if (/^f[cd]/.test(lower) || /^fe[89ab]/.test(lower)) return '局域网'
    return '未知位置'
  }
  return '未知位置'
}
