import { dayjs } from '@/utils/time'

/**
 * The time left before a deadline, as a person reads it in a list: 剩 2 天 3 小时, 剩 5 小时 12 分,
 * 剩 8 分钟; past it, 即将处理 (the server's timer is about to act). null without a deadline.
 */
export function timeLeftText(deadline: string | null, now: Date = new Date()): string | null {
  if (!deadline) return null
  const minutes = dayjs(deadline).diff(dayjs(now), 'minute')
  if (minutes <= 0) return '即将处理'
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  const rest = minutes % 60
  if (days > 0) return `剩 ${days} 天 ${hours} 小时`
  if (hours > 0) return `剩 ${hours} 小时 ${rest} 分`
  return `剩 ${Math.max(1, rest)} 分钟`
}

/** 接诊剩余 剩 5 小时 12 分: the server's label for what the deadline means, then the time left. */
export function deadlineText(
  label: string | null,
  deadline: string | null,
  now: Date = new Date(),
): string | null {
  const left = timeLeftText(deadline, now)
  if (!left) return null
  return label ? `${label} ${left}` : left
}
