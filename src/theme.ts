/**
 * The app's colours, in one place. SPEC section 2 names the first three (tab and navigation bar 0DB4AA,
 * tab text 666, page background f3f4f6; src/__tests__/spec-routes.test.ts holds them to it); the others
 * are shades drawn beside the brand colour. Stylesheets read the same values from src/styles/_theme.scss
 * (`@use '…/styles/theme'`), NutUI from the CSS variables app.scss sets from them, and
 * src/__tests__/theme.test.ts keeps that file equal to this one and fails on the brand colour written
 * out anywhere else.
 */
export const THEME = {
  primary: '#0DB4AA',
  tabText: '#666666',
  pageBackground: '#f3f4f6',
  /** The brand colour darkened: text on its own tint (tags, the current choice), pressed buttons. */
  primaryDark: '#0a9e95',
  /** NutUI's disabled primary button. */
  primaryDisabled: '#86dad4',
  /** The far end of the brand gradient towards blue (the home banner, the login header). */
  gradientBlue: '#14a3c7',
  /** The far end of the brand gradient towards teal (数据切换中心, 应用中心 cards). */
  gradientTeal: '#14b8a6',
  /** The far end of the brand gradient towards a deeper green (the ID card). */
  gradientDeep: '#0a8f87',
  /** The far end of the brand gradient on the film-bag report (胶片报告). */
  gradientDark: '#0a9b92',
} as const
