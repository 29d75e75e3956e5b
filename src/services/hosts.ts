import { SERVICES, type ServiceName } from '@contract/services'
import { currentPlatform } from '@/platform/runtime'

/**
 * Base address of each service (SPEC section 7: every service has its own host in production).
 *
 * Configured with Taro env files (`.env`, `.env.production`, ...):
 * - `TARO_APP_API_ORIGIN`: origin of the reference server, which serves every service under a path
 *   prefix (contract/services.ts). H5 defaults to '' (same origin as the page, as `npm start` serves
 *   both). The mini-program has no page origin, so it defaults to http://127.0.0.1:8080 for the
 *   developer tools; a real deployment must set TARO_APP_API_ORIGIN to its HTTPS origin (WeChat only
 *   calls domains listed in the mini-program's request whitelist).
 * - `TARO_APP_HOST_<SERVICE>`: a service's own base address, used as is (prefix included), e.g.
 *   TARO_APP_HOST_CONSULT=https://consult.example.com.
 *
 * Each `process.env.X` is written out whole because Taro replaces those exact expressions at build
 * time. A variable that no env file defines is left as a real `process.env` read, which throws where
 * `process` does not exist (weapp, browsers); `readEnv` turns that into "not set".
 */
export function readEnv(read: () => string | undefined): string | undefined {
  try {
    const value = read()
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined
  } catch {
    return undefined
  }
}

/**
 * The SystemId header (SPEC section 7): a fixed constant per deployment, blank for systems that do
 * not need it. Set with `TARO_APP_SYSTEM_ID` in the build's environment.
 */
export function systemId(): string {
  return readEnv(() => process.env.TARO_APP_SYSTEM_ID) ?? ''
}

export const WEAPP_DEFAULT_ORIGIN = 'http://127.0.0.1:8080'

function defaultOrigin(): string {
  return currentPlatform() === 'weapp' ? WEAPP_DEFAULT_ORIGIN : ''
}

export function apiOrigin(): string {
  const origin = readEnv(() => process.env.TARO_APP_API_ORIGIN) ?? defaultOrigin()
  return origin.replace(/\/+$/, '')
}

function serviceOverrides(): Partial<Record<ServiceName, string | undefined>> {
  return {
    sso: readEnv(() => process.env.TARO_APP_HOST_SSO),
    main: readEnv(() => process.env.TARO_APP_HOST_MAIN),
    consult: readEnv(() => process.env.TARO_APP_HOST_CONSULT),
    image: readEnv(() => process.env.TARO_APP_HOST_IMAGE),
    scan: readEnv(() => process.env.TARO_APP_HOST_SCAN),
    reportModel: readEnv(() => process.env.TARO_APP_HOST_REPORT_MODEL),
    case: readEnv(() => process.env.TARO_APP_HOST_CASE),
    update: readEnv(() => process.env.TARO_APP_HOST_UPDATE),
    knowledge: readEnv(() => process.env.TARO_APP_HOST_KNOWLEDGE),
  }
}

/** The base address every call to `service` is prefixed with. */
export function hostOf(service: ServiceName): string {
  const override = serviceOverrides()[service]
  if (override !== undefined) return override.replace(/\/+$/, '')
  return `${apiOrigin()}${SERVICES[service]}`
}

export function allHosts(): Record<ServiceName, string> {
  const hosts = {} as Record<ServiceName, string>
  for (const service of Object.keys(SERVICES) as ServiceName[]) hosts[service] = hostOf(service)
  return hosts
}
