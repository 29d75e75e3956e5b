/** 13800138000 → 138****8000. Anything that is not an 11-digit number is masked whole. */
export function maskMobile(mobile: string): string {
  if (/^\d{11}$/.test(mobile)) return `${mobile.slice(0, 3)}****${mobile.slice(7)}`
  return '*'.repeat(Math.min(mobile.length, 11))
}
