// NutUI's icon settings, imported by their files: the package index is rewritten by
// babel-plugin-import into default imports, which these two files do not have.
interface NutIconConfig {
  useSvg: boolean
  classPrefix: string
  tag: string
  fontClassName: string
}

declare module '@nutui/icons-react-taro/dist/es/icons/configure.js' {
  export function configure(config: Partial<NutIconConfig>): void
}

declare module '@nutui/icons-react-taro/dist/es/icons/internal.js' {
  export const globalConfig: NutIconConfig
}
