/**
 * What the app learns from the build's environment: every `TARO_APP_*` variable (TARO_APP_API_ORIGIN,
 * TARO_APP_HOST_<SERVICE>, see src/services/hosts.ts), set in the shell or in a `.env` file. Taro itself
 * only passes on the ones written in `.env` files; a shell variable would silently never reach the app.
 */

/** `npm test` builds the mini-program to measure and lint it, never to ship it: see weappOrigin(). */
export const CHECKS_ORIGIN = 'https://api.example.invalid'

export class BuildConfigError extends Error {}

interface Target {
  /** TARO_ENV: 'h5', 'weapp', ... */
  taroEnv: string | undefined
  /** A release build (`taro build` without --watch, `npm run build`). */
  production: boolean
}

/**
 * The mini-program has no page origin to fall back on: a release build without an API origin would
 * call 127.0.0.1 on the user's phone. It stops instead, unless BUILD_FOR_CHECKS=1 (size and quality
 * checks of `npm test`), which gets a placeholder that can never resolve (.invalid, RFC 6761).
 */
export function weappOrigin(env: NodeJS.ProcessEnv, target: Target): string | undefined {
  const origin = env.TARO_APP_API_ORIGIN?.trim()
  if (target.taroEnv !== 'weapp' || !target.production) return origin || undefined
  if (!origin) {
    if (env.BUILD_FOR_CHECKS === '1') return CHECKS_ORIGIN
    throw new BuildConfigError(
      [
        '小程序正式构建缺少 TARO_APP_API_ORIGIN：请设置接口服务的 HTTPS 地址，例如',
        '  TARO_APP_API_ORIGIN=https://api.example.com npm run build:weapp',
        'A production weapp build needs TARO_APP_API_ORIGIN (the HTTPS origin of the API server);',
        'without it the mini-program would call 127.0.0.1. Only for size/quality checks: BUILD_FOR_CHECKS=1.',
      ].join('\n'),
    )
  }
  if (!/^https:\/\/[^/\s]+/.test(origin)) {
    throw new BuildConfigError(
      `TARO_APP_API_ORIGIN 必须是 HTTPS 地址（微信只允许 HTTPS 请求域名），当前为 ${origin}\n` +
        `A production weapp build needs an https:// TARO_APP_API_ORIGIN, got ${origin}`,
    )
  }
  return origin
}

/** Taro's `env` option: each value becomes `process.env.<NAME>` in the app's code (DefinePlugin). */
export function appEnv(env: NodeJS.ProcessEnv, target: Target): Record<string, string> {
  const defined: Record<string, string> = {}
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith('TARO_APP_') && value !== undefined && value.trim() !== '')
      defined[name] = JSON.stringify(value.trim())
  }
  const origin = weappOrigin(env, target)
  if (origin) defined.TARO_APP_API_ORIGIN = JSON.stringify(origin)
  return defined
}
