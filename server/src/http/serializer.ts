import type { FastifySchemaCompiler } from 'fastify'
import { serializerCompiler as zodSerializerCompiler } from 'fastify-type-provider-zod'

type Compiler = typeof zodSerializerCompiler
type Serialise = (payload: unknown) => string

/**
 * fastify-type-provider-zod's serializer (check the answer against the route's response schema, then
 * JSON), which remembers the text of a successful answer whose data object it has already turned
 * into text. The patient lists' cache (domain/patient/list-cache.ts) hands the same, never mutated
 * object to every request while nothing changed; checking and stringifying 36 exam summaries again
 * cost more than the rest of such a request together. Every other answer is a fresh object, so its
 * entry goes with it (a WeakMap holds nothing alive).
 */
export const serializerCompiler: Compiler = (routeSchema) => {
  const serialise = (zodSerializerCompiler as FastifySchemaCompiler<unknown>)(
    routeSchema as never,
  ) as Serialise
  const texts = new WeakMap<object, string>()
  return (payload: unknown) => {
    const data = successData(payload)
    if (!data) return serialise(payload)
    const known = texts.get(data)
    if (known !== undefined) return known
    const text = serialise(payload)
    texts.set(data, text)
    return text
  }
}

/** The data of an `ok(data)` envelope (http/envelope.ts), whose other fields never vary. */
function successData(payload: unknown): object | undefined {
  if (typeof payload !== 'object' || payload === null) return undefined
  const envelope = payload as { code?: unknown; error?: unknown; data?: unknown }
  if (envelope.code !== 200 || envelope.error !== null) return undefined
  return typeof envelope.data === 'object' && envelope.data !== null ? envelope.data : undefined
}
