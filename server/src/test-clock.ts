/**
 * The e2e suite's clock (TEST_CLOCK=1, demo mode on a loopback host only; config.ts refuses it
 * otherwise): the real time plus an offset that only moves forward, stepped by POST
 * /main/demo/clock so the journeys can see a timer fire (an expert who never accepts). Jobs, timers
 * and sessions all read the app's clock, so they move with it.
 */
export interface SteppableClock {
  now: () => Date
  advance: (ms: number) => Date
}

export function createSteppableClock(): SteppableClock {
  let offset = 0
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms) => {
      offset += Math.max(0, ms)
      return new Date(Date.now() + offset)
    },
  }
}
