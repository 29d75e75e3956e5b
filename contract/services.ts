/**
 * The spec's services (SPEC section 7). Each has its own host in production; on the reference server
 * they are path prefixes of one origin.
 */
export const SERVICES = {
  sso: '/sso',
  main: '/main',
  consult: '/consult',
  image: '/image',
  scan: '/scan',
  reportModel: '/report-model',
  case: '/case',
  update: '/update',
  knowledge: '/knowledge',
  system: '',
} as const

export type ServiceName = keyof typeof SERVICES
