/**
 * `npm start`: builds the H5 app when it is missing or stale, then runs the reference server, which
 * migrates the database, seeds demo data (demo mode is on unless NODE_ENV=production) and serves the
 * app and the API on one port (default http://127.0.0.1:8080; PORT and HOST change it).
 *
 * The build runs in a child process while this one loads the server's modules (compiling them is a
 * few seconds of the first start). The server starts only when the build has finished: Taro empties
 * dist/h5 first, and a server that answered /health earlier would send a half-built app.
 */
import { BUILDING_MESSAGE, h5BuildIsCurrent, startTaroBuild } from './lib/h5-build'

async function buildH5(): Promise<boolean> {
  console.log(BUILDING_MESSAGE)
  const build = startTaroBuild('h5')
  // Stopped while building (Ctrl-C, a test harness's SIGTERM): the build stops too.
  const stop = (signal: NodeJS.Signals) => {
    build.child.kill(signal)
    process.exit(1)
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  // The server's modules, loaded meanwhile; a failure to load shows when the server itself loads.
  const preload = import('../server/src/app').catch(() => undefined)
  const [built] = await Promise.all([build.done, preload])
  process.off('SIGINT', stop)
  process.off('SIGTERM', stop)
  return built
}

async function main(): Promise<void> {
  if (!process.env.WEB_ROOT && !h5BuildIsCurrent() && !(await buildH5())) {
    console.error('H5 构建失败，服务未启动。请查看上面的构建输出。')
    process.exit(1)
  }
  // The server module starts listening when loaded and handles SIGINT/SIGTERM itself.
  await import('../server/src/server')
}

void main()
