import assert from 'node:assert/strict'
import { before, test } from 'node:test'
import { envelope } from '@contract/envelope'
import { getMessage, listMessages } from '@contract/main/messages'
import {
  createMessage,
  MESSAGE_NOT_FOUND,
  MESSAGE_NOTHING_TO_MARK,
} from '../../src/domain/messages'
import {
  buildProfileApp,
  type ProfileApp,
  signUp,
  type TestUser,
  validIdNumber,
} from '../domain/profile/support'
import { client } from '../records/patient-support'

let ctx: ProfileApp
let http: ReturnType<typeof client>
let alice: TestUser
let bob: TestUser
const ListSchema = envelope(listMessages.output)
const MessageSchema = envelope(getMessage.output)
const errorOf = (body: string) => (JSON.parse(body) as { error: string }).error

before(async () => {
  ctx = await buildProfileApp({ logLevel: 'silent' })
  http = client(ctx.app)
  alice = await signUp(ctx.app.db, ctx.clock.now())
  bob = await signUp(ctx.app.db, ctx.clock.now())
})

async function write(user: TestUser, title: string, kind: 'grant' | 'system' = 'grant') {
  ctx.clock.advance(1000)
  return createMessage(
    ctx.app.db,
    {
      userId: user.user.id,
      kind,
      title,
      body: `${title}的内容`,
      link: kind === 'grant' ? { route: 'shouquanList', params: { grantId: 'g1' } } : null,
    },
    ctx.clock.now(),
  )
}

test('a person lists only their own messages, newest first, with the unread count', async () => {
  const first = await write(alice, '第一条')
  await write(alice, '第二条', 'system')
  await write(bob, '别人的')
  const res = await http.get('/main/messages?page=1&pageSize=10', alice.token)
  assert.equal(res.statusCode, 200, res.body)
  const data = ListSchema.parse(res.json()).data!
  assert.deepEqual(
    data.items.map((m) => m.title),
    ['第二条', '第一条'],
  )
  assert.equal(data.total, 2)
  assert.equal(data.unread, 2)
  const grant = data.items.find((m) => m.id === first)!
  assert.equal(grant.kindLabel, '授权提醒')
  assert.deepEqual(grant.link, { route: 'shouquanList', params: { grantId: 'g1' } })
  assert.equal(data.items.find((m) => m.id !== first)!.link, null)

  const onlyGrants = ListSchema.parse(
    (await http.get('/main/messages?kind=grant', alice.token)).json(),
  ).data!
  assert.deepEqual(
    onlyGrants.items.map((m) => m.id),
    [first],
  )
  // The badge counts every unread message, whatever the list shows.
  assert.equal(onlyGrants.unread, 2)
})

test('opening marks read; another person’s message is a 404 like a missing one', async () => {
  const id = await write(alice, '打开即已读')
  const before = (await http.get('/main/messages/unread', alice.token)).json().data.total as number
  const res = await http.get(`/main/messages/${id}`, alice.token)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(MessageSchema.parse(res.json()).data!.read, true)
  const after = (await http.get('/main/messages/unread', alice.token)).json().data.total as number
  assert.equal(after, before - 1)

  const stranger = await http.get(`/main/messages/${id}`, bob.token)
  assert.equal(stranger.statusCode, 404)
  assert.equal(errorOf(stranger.body), MESSAGE_NOT_FOUND)
  const missing = await http.get('/main/messages/00000000-0000-4000-8000-000000000000', bob.token)
  assert.equal(missing.body, stranger.body)
  const deleted = await http.send('DELETE', `/main/messages/${id}`, bob.token)
  assert.equal(deleted.statusCode, 404)
  assert.equal((await http.get(`/main/messages/${id}`, alice.token)).statusCode, 200)
})

test('mark read: named ones (others’ ids ignored), all, or a 400 when neither', async () => {
  const mine = await write(alice, '标记一')
  const theirs = await write(bob, '标记二')
  const named = await http.send('POST', '/main/messages/read', alice.token, { ids: [mine, theirs] })
  assert.equal(named.statusCode, 200, named.body)
  const bobList = ListSchema.parse((await http.get('/main/messages', bob.token)).json()).data!
  assert.equal(bobList.items.find((m) => m.id === theirs)!.read, false)

  const none = await http.send('POST', '/main/messages/read', alice.token, {})
  assert.equal(none.statusCode, 400)
  assert.equal(errorOf(none.body), MESSAGE_NOTHING_TO_MARK)

  const all = await http.send('POST', '/main/messages/read', alice.token, { all: true })
  assert.equal(all.statusCode, 200)
  assert.equal((await http.get('/main/messages/unread', alice.token)).json().data.total, 0)
  assert.equal(
    (await http.get('/main/messages/unread', bob.token)).json().data.total,
    bobList.unread,
  )
})

test('delete removes the message; anonymous callers get 401', async () => {
  const id = await write(alice, '删除我')
  const res = await http.send('DELETE', `/main/messages/${id}`, alice.token)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal((await http.get(`/main/messages/${id}`, alice.token)).statusCode, 404)
  assert.equal((await http.get('/main/messages')).statusCode, 401)
})

test('createMessage refuses a kind outside the contract', async () => {
  await assert.rejects(
    createMessage(
      ctx.app.db,
      // @ts-expect-error: a kind the contract does not have
      { userId: alice.user.id, kind: 'spam', title: 't', body: 'b', link: null },
      ctx.clock.now(),
    ),
  )
})

test('a message to a child (亲情卡) reaches each active guardian too', async () => {
  const child = await ctx.app.inject({
    method: 'POST',
    url: '/main/family/children',
    headers: { authorization: `Bearer ${alice.token}` },
    payload: { name: '刘小童', idNumber: validIdNumber('20200808', 601), guardianConfirmed: true },
  })
  assert.equal(child.statusCode, 200, child.body)
  const personId = (child.json() as { data: { personId: string } }).data.personId
  const before = ListSchema.parse((await http.get('/main/messages', alice.token)).json()).data!
  await createMessage(
    ctx.app.db,
    { userId: personId, kind: 'grant', title: '孩子的授权被查看', body: '首次查看', link: null },
    ctx.clock.now(),
  )
  const after = ListSchema.parse((await http.get('/main/messages', alice.token)).json()).data!
  assert.equal(after.total, before.total + 1)
  assert.equal(after.items[0]!.title, '孩子的授权被查看')
  const bobs = ListSchema.parse((await http.get('/main/messages', bob.token)).json()).data!
  assert.ok(!bobs.items.some((m) => m.title === '孩子的授权被查看'))
})
