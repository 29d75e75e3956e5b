/**
 * The one table of stacking layers (SPEC section 9 names them; their values are ours). Higher wins:
 * a toast must stay readable above an open popup and its mask, and fixed bars sit below both.
 */
export const LAYERS = {
  toast: 10090,
  noNetwork: 10080,
  popup: 10075,
  mask: 10070,
  navbar: 980,
  topTips: 975,
  sticky: 970,
  backToTop: 960,
} as const

export type Layer = keyof typeof LAYERS
