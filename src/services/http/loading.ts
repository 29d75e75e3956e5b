import { LOADING_TEXT } from './constants'
import type { HttpTimers, HttpUi } from './types'

export interface LoadingTicket {
  timer: unknown
  done: boolean
}

/**
 * "请求中..." appears once some request has run for 800 ms and disappears when the last one ends,
 * so overlapping requests show one indicator, never flicker, and never leave it stuck.
 */
export function createLoadingTracker(ui: HttpUi, timers: HttpTimers, delayMs: number) {
  let pending = 0
  let visible = false
  return {
    begin(track: boolean): LoadingTicket | null {
      if (!track) return null
      pending += 1
      const ticket: LoadingTicket = { timer: undefined, done: false }
      ticket.timer = timers.setTimeout(() => {
        ticket.timer = undefined
        if (!ticket.done && !visible) {
          visible = true
          ui.showLoading(LOADING_TEXT)
        }
      }, delayMs)
      return ticket
    },
    end(ticket: LoadingTicket | null): void {
      if (ticket === null || ticket.done) return
      ticket.done = true
      if (ticket.timer !== undefined) timers.clearTimeout(ticket.timer)
      pending -= 1
      if (pending === 0 && visible) {
        visible = false
        ui.hideLoading()
      }
    },
  }
}
