import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { z } from 'zod/mini'
import { defineEndpoint, fullPath } from '@contract/endpoint'
import { operatorListArticleTypes } from '@contract/main/operator'
import { type GrantedRole, ROLE_REQUIRED_MESSAGES } from '@contract/sso/auth'
import { route } from '../../src/http/route'
import {
  bearer,
  buildProfileApp,
  type ProfileApp,
  signUp,
  type TestUser,
} from '../domain/profile/support'

/**
 * The role check of `Endpoint.role` (issue 19, section 4): any granted role, checked right after the
 * token and before the input is read, so a caller without the role learns 403 and nothing about what a
 * valid input would be. An expert is a patient too; an operator is not an expert.
 */
let ctx: ProfileApp
const users = {} as Record<'patient' | 'expert' | 'operator', TestUser>

/** A strict input: anything the role check let through would answer 400 for the empty body. */
const Input = z.object({ studyId: z.string().check(z.minLength(8)) })
const gated = (role: GrantedRole) =>
  defineEndpoint({
    service: 'main',
    method: 'POST',
    path: `/test-only/${role}`,
    input: Input,
    output: z.object({ ok: z.boolean() }),
    auth: true,
    role,
    summary: `only for ${role}`,
  })
const ExpertOnly = gated('expert')
const OperatorOnly = gated('operator')
const AnyAccount = defineEndpoint({ ...ExpertOnly, path: '/test-only/anyone', role: undefined })

before(async () => {
  ctx = await buildProfileApp()
  let reads = 0
  for (const endpoint of [ExpertOnly, OperatorOnly, AnyAccount]) {
    route(ctx.app, endpoint, () => {
      reads += 1
      return { ok: reads > 0 }
    })
  }
  for (const role of ['patient', 'expert', 'operator'] as const) {
    users[role] = await signUp(ctx.app.db, ctx.clock.now(), { role })
  }
})

async function post(user: TestUser, url: string, payload: object) {
  const res = await ctx.app.inject({ method: 'POST', url, headers: bearer(user.token), payload })
  return { status: res.statusCode, body: JSON.parse(res.body) as { error?: string } }
}

test('a patient calling an expert-only operation gets 403 before its input is read', async () => {
  const answer = await post(users.patient, fullPath(ExpertOnly), {})
  assert.equal(answer.status, 403)
  assert.equal(answer.body.error, ROLE_REQUIRED_MESSAGES.expert)
})

test('an expert calling an operator-only operation gets 403 before its input is read', async () => {
  const made = await post(users.expert, fullPath(OperatorOnly), {})
  assert.equal(made.status, 403)
  assert.equal(made.body.error, ROLE_REQUIRED_MESSAGES.operator)
  // A real operator call of the contract answers the same.
  const real = await ctx.app.inject({
    method: operatorListArticleTypes.method,
    url: fullPath(operatorListArticleTypes),
    headers: bearer(users.expert.token),
  })
  assert.equal(real.statusCode, 403)
})

test('an operator is not an expert', async () => {
  const answer = await post(users.operator, fullPath(ExpertOnly), {})
  assert.equal(answer.status, 403)
  assert.equal(answer.body.error, ROLE_REQUIRED_MESSAGES.expert)
})

test('with the role, the input is read (400 for a bad one, 200 for a good one)', async () => {
  assert.equal((await post(users.expert, fullPath(ExpertOnly), {})).status, 400)
  assert.equal(
    (await post(users.expert, fullPath(ExpertOnly), { studyId: '12345678' })).status,
    200,
  )
  assert.equal(
    (await post(users.operator, fullPath(OperatorOnly), { studyId: '12345678' })).status,
    200,
  )
})

test('an expert keeps every patient feature: an endpoint without a role answers every account', async () => {
  for (const user of Object.values(users)) {
    assert.equal((await post(user, fullPath(AnyAccount), { studyId: '12345678' })).status, 200)
  }
})
