/**
 * `npm start`: builds the H5 app when it is missing or stale, then runs the reference server, which
 * migrates the database, seeds demo data (demo mode is on unless NODE_ENV=production) and serves the
 * app and the API on one port (default http://127.0.0.1:8080; PORT and HOST change it).
 */
import { ensureH5Build } from './lib/h5-build'

if (!process.env.WEB_ROOT && !ensureH5Build()) {
  console.error('H5 构建失败，服务未启动。请查看上面的构建输出。')
  process.exit(1)
}

// The server module starts listening when loaded and handles SIGINT/SIGTERM itself.
void import('../server/src/server')
