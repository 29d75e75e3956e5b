/**
 * One server process for bench/realtime.ts: the real app (buildApp, configured from the environment
 * like server/src/server.ts), listening, plus an IPC hook so the bench can make this process publish
 * (`{type:'publish', id, userIds, event}` → `app.realtime.publish` → `{type:'published', id}`).
 * Not a product entry point: nothing but the bench starts it.
 */
import type { RealtimeEvent } from '../contract/main/realtime'
import { buildApp } from '../server/src/app'
import { loadConfig } from '../server/src/config'

interface PublishRequest {
  type: 'publish'
  id: number
  userIds: string[]
  event: RealtimeEvent
}

async function main(): Promise<void> {
  const config = loadConfig()
  const app = await buildApp(config)
  await app.listen({ host: config.host, port: config.port })
  await app.realtime.whenListening()
  process.on('message', (message: PublishRequest | { type: 'stop' }) => {
    if (message.type === 'stop') {
      void app.close().then(() => process.exit(0))
      return
    }
    void app.realtime.publish(message.userIds, message.event).then(() => {
      process.send?.({ type: 'published', id: message.id })
    })
  })
  process.send?.({ type: 'listening' })
}

main().catch((error: unknown) => {
  console.error(error)
  process.exit(1)
})
