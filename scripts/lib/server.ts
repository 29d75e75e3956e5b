import type { AddressInfo } from 'node:net'
import { buildApp } from '../../server/src/app'
import { loadConfig } from '../../server/src/config'

export interface RunningServer {
  url: string
  close: () => Promise<void>
}

/** The reference server in this process on a free port, over a throwaway in-memory database. */
export async function startServer(env: Record<string, string> = {}): Promise<RunningServer> {
  const config = loadConfig({
    DATABASE_URL: ':memory:',
    LOG_LEVEL: 'warn',
    ...env,
    PORT: '1',
  })
  const app = await buildApp({ ...config, port: 0 })
  await app.listen({ host: '127.0.0.1', port: 0 })
  const { port } = app.server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => app.close() }
}
