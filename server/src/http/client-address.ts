import { isIP } from 'node:net'

/**
 * Fastify's `trustProxy` from TRUST_PROXY (src/config.ts): off, a hop count (that many proxies nearest
 * to the server are believed), or the proxies' addresses/CIDRs. A count is given as a function because
 * Fastify's typings take it that way. Never `true`: believing every X-Forwarded-For would let any
 * client pick the address that per-address limits count.
 */
export function trustProxyOption(
  trustProxy: number | string[] | false,
): false | string[] | ((address: string, hop: number) => boolean) {
  if (typeof trustProxy === 'number') {
    if (trustProxy <= 0) return false
    return (_address: string, hop: number) => hop < trustProxy
  }
  return trustProxy
}

/**
 * The network a client address stands for, as limits count it: an IPv4 address as is (an
 * IPv4-mapped IPv6 address as its IPv4 form), an IPv6 address by its /64, since one subscriber
 * usually gets a whole /64 and could otherwise take a fresh address for every request. Anything
 * unparsable counts as one shared `unknown` client.
 */
export function clientNetwork(ip: string | undefined): string {
  const address = (ip ?? '').trim()
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(address)
  if (mapped && isIP(mapped[1]!) === 4) return mapped[1]!
  const kind = isIP(address)
  if (kind === 4) return address
  if (kind !== 6) return 'unknown'
  const groups = expandIpv6(address.split('%')[0]!)
  return `${groups.slice(0, 4).join(':')}::/64`
}

/** The eight 16-bit groups of an IPv6 address, lower-case, without leading zeros. */
function expandIpv6(address: string): string[] {
  let text = address.toLowerCase()
  // An embedded IPv4 tail (::ffff:1.2.3.4 forms other than the mapped one) becomes two groups.
  const v4 = /(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text)
  if (v4) {
    const [a, b, c, d] = v4.slice(1).map(Number) as [number, number, number, number]
    text = `${text.slice(0, v4.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`
  }
  const [head, tail] = text.split('::') as [string, string | undefined]
  const left = head === '' ? [] : head.split(':')
  const right = tail === undefined || tail === '' ? [] : tail.split(':')
  const fill = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0')
  return [...left, ...fill, ...right].map((group) => parseInt(group, 16).toString(16))
}
