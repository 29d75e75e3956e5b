/**
 * `npm run build`: production builds of both targets; the H5 build is stamped so `npm start` reuses it.
 * The mini-program needs TARO_APP_API_ORIGIN (its HTTPS API origin); `npm test` sets BUILD_FOR_CHECKS=1
 * instead, for a build that is only measured (config/app-env.ts).
 */
import { BuildConfigError, weappOrigin } from '../config/app-env'
import { startTaroBuild } from './lib/h5-build'

async function main(): Promise<void> {
  // Said before the H5 build rather than after it, and without Taro's note about a missing config.
  try {
    weappOrigin(process.env, { taroEnv: 'weapp', production: true })
  } catch (error) {
    if (!(error instanceof BuildConfigError)) throw error
    console.error(error.message)
    process.exit(1)
  }

  for (const type of ['h5', 'weapp'] as const) {
    const started = Date.now()
    if (!(await startTaroBuild(type).done)) {
      console.error(`${type} 构建失败`)
      process.exit(1)
    }
    console.log(`${type} build: ${((Date.now() - started) / 1000).toFixed(1)} s`)
  }
}

void main()
