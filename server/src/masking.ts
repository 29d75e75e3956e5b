/*
 * Masking, in one place: how a phone number or a person's name is shown to anyone but its owner.
 */

/** 13800138000 → 138****8000. Anything that is not an 11-digit number is masked whole. */
export function maskMobile(mobile: string): string {
  if (/^\d{11}$/.test(mobile)) return `${mobile.slice(0, 3)}****${mobile.slice(7)}`
  return '*'.repeat(Math.min(mobile.length, 11))
}

/**
 * 张三 → 张*, 欧阳娜娜 → 欧***: the surname is what a person recognises, nothing more. Every masked
 * person's name (a bound card's holder, a sharer, a hospital's patient, DICOM through a grant).
 */
export function maskName(name: string): string {
  const chars = [...name.trim()]
  if (chars.length === 0) return ''
  return chars[0] + '*'.repeat(Math.max(1, chars.length - 1))
}
