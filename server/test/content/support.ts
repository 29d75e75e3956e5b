import type { FastifyInstance } from 'fastify'
import { seedDemoContent } from '../../src/domain/content/demo/seed'
import { buildProfileApp, type ProfileApp } from '../domain/profile/support'

/** Shared by the content tests (not a test file): an app on a fresh database with the demo content. */
export async function contentApp(): Promise<ProfileApp> {
  const ctx = await buildProfileApp({ logLevel: 'silent' })
  await seedDemoContent(ctx.app.db, ctx.app.store, ctx.clock.now())
  return ctx
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test answers are read loosely; the contract tests check shapes
export async function json<T = any>(
  app: FastifyInstance,
  options: {
    method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
    url: string
    token?: string
    payload?: unknown
    headers?: Record<string, string>
  },
): Promise<{ status: number; data: T; error: string | null }> {
  const res = await app.inject({
    method: options.method ?? 'GET',
    url: options.url,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.headers ?? {}),
    },
    ...(options.payload === undefined ? {} : { payload: options.payload as object }),
  })
  const body = JSON.parse(res.body) as { data: T; error: string | null }
  return { status: res.statusCode, data: body.data, error: body.error }
}
