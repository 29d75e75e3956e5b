import { configure } from '@nutui/icons-react-taro/dist/es/icons/configure.js'

/**
 * NutUI's icons draw an SVG mask on an element of their own: an <i> by default. The mini-program
 * has no template for <i> (only Taro's own components, without @tarojs/plugin-html), so there they
 * are drawn on a view instead. Their size comes from the icon stylesheet src/app.ts loads.
 */
export function setUpIcons(): void {
  if (process.env.TARO_ENV === 'weapp') configure({ tag: 'view' })
}
