/**
 * Money is integer fen everywhere (contract, server, ledger); yuan exist only on screen and in what
 * a person types. Both directions are done on the digits, never with floating point, so 30.5 is
 * exactly 3050 fen and 0.07 never becomes 7.000000000000001.
 */

/** `¥30` for whole yuan, `¥30.50` otherwise: never one decimal, never a float's tail. */
export function yuanText(fen: number): string {
  const sign = fen < 0 ? '-' : ''
  const abs = Math.abs(Math.trunc(fen))
  const whole = Math.floor(abs / 100)
  const cents = abs % 100
  return `${sign}¥${whole}${cents === 0 ? '' : `.${String(cents).padStart(2, '0')}`}`
}

/** What a price input shows for a price in fen: `30`, `30.5` would read oddly, so `30.50`. */
export function yuanInput(fen: number): string {
  return yuanText(fen).replace('¥', '')
}

const YUAN_RE = /^(0|[1-9]\d{0,8})(?:\.(\d{1,2}))?$/

/**
 * A typed amount in yuan (`30`, `30.5`, `0.01`) as integer fen, or null when it is not one: a sign,
 * commas, spaces inside, three decimals or more than nine digits of yuan are refused, not rounded.
 */
export function yuanToFen(text: string): number | null {
  const match = YUAN_RE.exec(text.trim())
  if (!match) return null
  const cents = (match[2] ?? '').padEnd(2, '0')
  return Number(match[1]) * 100 + Number(cents)
}
