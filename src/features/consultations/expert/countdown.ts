import dayjs from 'dayjs'
import { useEffect, useState } from 'react'

/**
 * Time left to a deadline as a person reads it: 2天3小时, 5小时12分, 8分钟, 已超时. Computed with dayjs
 * from the server's ISO time; may later be merged with shared/ (the patient's list shows the same).
 */
export function timeLeftText(deadline: string, now: number = Date.now()): string {
  const minutes = dayjs(deadline).diff(dayjs(now), 'minute')
  if (minutes <= 0) return '已超时'
  const days = Math.floor(minutes / 1440)
  const hours = Math.floor((minutes % 1440) / 60)
  const rest = minutes % 60
  if (days > 0) return `${days}天${hours}小时`
  if (hours > 0) return `${hours}小时${rest}分`
  return `${rest}分钟`
}

/** Less than this left is shown in red. */
export const URGENT_MINUTES = 120

export function isUrgent(deadline: string, now: number = Date.now()): boolean {
  return dayjs(deadline).diff(dayjs(now), 'minute') < URGENT_MINUTES
}

/** The current time, moving once a minute (a countdown in minutes needs nothing finer). */
export function useMinuteClock(): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 60_000)
    return () => clearInterval(timer)
  }, [])
  return now
}
