import dayjs from 'dayjs'

/** 2026-11-24 22:15: when a grant or a link session ends, in the person's clock. */
export function untilText(iso: string): string {
  return dayjs(iso).format('YYYY-MM-DD HH:mm')
}
