/** `npm run build`: production builds of both targets; the H5 build is stamped so `npm start` reuses it. */
import { spawnSync } from 'node:child_process'
import { stampH5Build } from './lib/h5-build'

for (const type of ['h5', 'weapp']) {
  const started = Date.now()
  const result = spawnSync('npx', ['taro', 'build', '--type', type], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  })
  if (result.status !== 0) {
    console.error(`${type} 构建失败`)
    process.exit(result.status ?? 1)
  }
  if (type === 'h5') stampH5Build()
  console.log(`${type} build: ${((Date.now() - started) / 1000).toFixed(1)} s`)
}
