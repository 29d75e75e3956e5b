// test-server: no database
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { z } from 'zod/mini'
import { envelope } from '@contract/envelope'
import { ok } from '../../src/http/envelope'
import { serializerCompiler } from '../../src/http/serializer'

const schema = envelope(z.object({ items: z.array(z.object({ id: z.string() })) }))
const compile = () =>
  (serializerCompiler as unknown as (input: object) => (payload: unknown) => string)({
    schema,
    method: 'GET',
    url: '/t',
    httpStatus: '200',
  })

test('an answer is checked against the schema and unknown fields are dropped', () => {
  const serialise = compile()
  const text = serialise(ok({ items: [{ id: 'a', secret: 'x' }] }))
  assert.deepEqual(JSON.parse(text).data, { items: [{ id: 'a' }] })
  assert.throws(() => serialise(ok({ items: [{ id: 1 }] })))
})

test('the same data object is turned into text once (the lists cache serves it unchanged)', () => {
  const serialise = compile()
  const data = { items: [{ id: 'a' }] }
  const first = serialise(ok(data))
  // Shared answers are never mutated; if one were, the remembered text shows it was not redone.
  data.items.push({ id: 'b' })
  assert.equal(serialise(ok(data)), first)
  // Another object with the same content is its own answer.
  assert.equal(JSON.parse(serialise(ok({ items: [{ id: 'c' }] }))).data.items[0].id, 'c')
})
