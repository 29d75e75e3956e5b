import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import {
  analyseText,
  getGlossaryTerm,
  KNOWLEDGE_MESSAGES,
  KNOWLEDGE_TEXT_MAX,
} from '@contract/knowledge/analysis'
import { fullPath } from '@contract/endpoint'
import { envelope } from '@contract/envelope'
import { json } from '../content/support'
import { buildProfileApp, type ProfileApp, signUp, type TestUser } from '../domain/profile/support'

/*
 * The knowledge service's routes (routes/knowledge/analysis.ts) on both databases: signed-in only,
 * the answer as the contract says, the text's limit with its Chinese message, a term by id.
 */

let ctx: ProfileApp
let alice: TestUser
const ANALYSIS = fullPath(analyseText)

before(async () => {
  ctx = await buildProfileApp({ logLevel: 'silent' })
  alice = await signUp(ctx.app.db, ctx.clock.now())
})

const analyse = (text: unknown, token: string | null = alice.token) =>
  json(ctx.app, { method: 'POST', url: ANALYSIS, token: token ?? undefined, payload: { text } })

test('the analysis is at /knowledge/analysis and needs a signed-in caller', async () => {
  assert.equal(ANALYSIS, '/knowledge/analysis')
  const anonymous = await analyse('磨玻璃结节', null)
  assert.equal(anonymous.status, 401)
})

test('a report’s text: spans in order, the longest term, only the terms found', async () => {
  const text = '右肺上叶见磨玻璃结节（GGO），未见钙化灶。结论：磨玻璃结节，建议随访。'
  const res = await ctx.app.inject({
    method: 'POST',
    url: ANALYSIS,
    headers: { authorization: `Bearer ${alice.token}` },
    payload: { text },
  })
  assert.equal(res.statusCode, 200)
  const body = envelope(analyseText.output).parse(res.json())
  const { spans, terms } = body.data!
  assert.deepEqual(
    spans.map(({ start, end, termId }) => [text.slice(start, end), termId]),
    [
      ['磨玻璃结节', 'chest.ground-glass-nodule'],
      ['GGO', 'chest.ground-glass-nodule'],
      ['钙化灶', 'general.calcification'],
      ['磨玻璃结节', 'chest.ground-glass-nodule'],
      ['建议随访', 'general.follow-up'],
    ],
  )
  assert.deepEqual(Object.keys(terms).sort(), [
    'chest.ground-glass-nodule',
    'general.calcification',
    'general.follow-up',
  ])
  const ggn = terms['chest.ground-glass-nodule']!
  assert.equal(ggn.term, '磨玻璃结节')
  assert.ok(ggn.aliases.includes('GGO'))
  assert.equal(ggn.followUp?.source, 'Fleischner Society 2017 偶发肺结节处理指南')
  assert.equal(terms['general.calcification']!.followUp, null)
})

test('empty text answers nothing; no text or too long a text is refused in Chinese', async () => {
  const empty = await analyse('')
  assert.equal(empty.status, 200)
  assert.deepEqual(empty.data, { spans: [], terms: {} })

  const missing = await json(ctx.app, {
    method: 'POST',
    url: ANALYSIS,
    token: alice.token,
    payload: {},
  })
  assert.equal(missing.status, 400)
  assert.match(missing.error!, new RegExp(KNOWLEDGE_MESSAGES.textMissing))

  const atLimit = await analyse('结'.repeat(KNOWLEDGE_TEXT_MAX))
  assert.equal(atLimit.status, 200)
  const over = await analyse('结'.repeat(KNOWLEDGE_TEXT_MAX + 1))
  assert.equal(over.status, 400)
  assert.match(over.error!, new RegExp(KNOWLEDGE_MESSAGES.textTooLong))
})

test('one term by id; an unknown id is 404 with its message', async () => {
  const url = (id: string) => fullPath(getGlossaryTerm).replace(':termId', encodeURIComponent(id))
  const found = await json(ctx.app, { url: url('neuro.lacunar-infarct'), token: alice.token })
  assert.equal(found.status, 200)
  assert.equal(found.data.term, '腔隙性脑梗死')
  assert.ok(found.data.aliases.includes('腔梗'))
  assert.equal(found.data.categoryLabel, '头颅与头颈')

  const missing = await json(ctx.app, { url: url('neuro.nothing'), token: alice.token })
  assert.equal(missing.status, 404)
  assert.equal(missing.error, KNOWLEDGE_MESSAGES.termNotFound)

  const anonymous = await json(ctx.app, { url: url('neuro.lacunar-infarct') })
  assert.equal(anonymous.status, 401)
})
