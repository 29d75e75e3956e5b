import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { readFileSync } from 'node:fs'
import path from 'node:path'
import { before, test } from 'node:test'
import * as operatorContract from '@contract/main/operator'
import { encodeJpeg } from '../../src/dicom/codecs'
import { checkHospitalKey } from '../../src/domain/hospitals'
import { purgeExpired } from '../../src/domain/retention'
import { NOT_OPERATOR } from '../../src/http/auth'
import { contentApp, json } from '../content/support'
import { type ProfileApp, signUp, type TestUser } from '../domain/profile/support'

let ctx: ProfileApp
let operator: TestUser
let patient: TestUser
let jpeg: Buffer
const DEMO_MP4 = path.join(__dirname, '../../src/domain/content/demo/media/talk-ct.mp4')

before(async () => {
  ctx = await contentApp()
  operator = await signUp(ctx.app.db, ctx.clock.now(), { role: 'operator' })
  patient = await signUp(ctx.app.db, ctx.clock.now())
  jpeg = Buffer.from(await encodeJpeg(new Uint8Array(96 * 64 * 3).fill(90), 96, 64, 3, 90))
})

const call = (
  user: TestUser | null,
  method: 'GET' | 'POST' | 'DELETE',
  url: string,
  payload?: object,
) =>
  json(ctx.app, {
    method,
    url,
    ...(user ? { token: user.token } : {}),
    ...(payload === undefined ? {} : { payload }),
  })

function multipart(bytes: Buffer, filename: string) {
  const boundary = 'opboundary'
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  return { payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } }
}

async function upload(user: TestUser, kind: string, bytes: Buffer, filename = 'f.bin') {
  const { payload, headers } = multipart(bytes, filename)
  const res = await ctx.app.inject({
    method: 'POST',
    url: `${operatorContract.OPERATOR_FILES_PATH}?kind=${kind}`,
    payload,
    headers: { ...headers, authorization: `Bearer ${user.token}` },
  })
  return {
    status: res.statusCode,
    body: JSON.parse(res.body) as {
      data: { id: string; path: string; durationSeconds: number | null }
      error: string
    },
  }
}

/** Every operator call of the contract, with a path whose parameters are filled. */
function operatorCalls() {
  return (Object.values(operatorContract) as unknown[])
    .filter(
      (value): value is { method: 'GET' | 'POST' | 'DELETE'; path: string; service: string } =>
        typeof value === 'object' && value !== null && 'path' in value && 'method' in value,
    )
    .map((endpoint) => ({
      method: endpoint.method,
      url: `/main${endpoint.path.replace(/:[A-Za-z]+/g, 'x1')}`,
    }))
}

test('every operator call answers 403 to a patient and 401 to nobody, before reading anything', async () => {
  const calls = operatorCalls()
  assert.ok(calls.length >= 17, `found ${calls.length} operator calls`)
  for (const { method, url } of calls) {
    const asPatient = await call(patient, method, url, method === 'GET' ? undefined : {})
    assert.equal(asPatient.status, 403, `${method} ${url}`)
    assert.equal(asPatient.error, NOT_OPERATOR)
    const anonymous = await call(null, method, url, method === 'GET' ? undefined : {})
    assert.equal(anonymous.status, 401, `${method} ${url}`)
  }
  const up = await upload(patient, 'cover', jpeg)
  assert.equal(up.status, 403)
})

test('an article: a draft is sanitised and hidden, published it is read and found, unpublished it is gone', async () => {
  const types = await call(operator, 'GET', '/main/operator/article-types')
  assert.equal(types.status, 200)
  const typeId = types.data[0].id as string
  const cover = await upload(operator, 'cover', jpeg, 'c.jpg')
  assert.equal(cover.status, 200)
  // Not public until an article names it.
  assert.equal((await ctx.app.inject({ url: cover.body.data.path })).statusCode, 404)

  const saved = await call(operator, 'POST', '/main/operator/articles', {
    typeId,
    title: '  冬季颈椎保养小贴士  ',
    summary: '',
    html: '<p>低头看手机时间长了，颈椎会累。</p><script>alert(1)</script><p onclick="x()">每隔半小时活动一下。</p>',
    coverImageId: cover.body.data.id,
  })
  assert.equal(saved.status, 200, saved.error ?? '')
  const article = saved.data
  assert.equal(article.title, '冬季颈椎保养小贴士')
  assert.equal(article.state, 'draft')
  assert.equal(article.stateLabel, '草稿')
  assert.ok(!article.html.includes('script'))
  assert.ok(
    article.removed.some((r: string) => r.includes('script')),
    String(article.removed),
  )
  assert.ok(article.summary.startsWith('低头看手机'), 'an empty summary is the start of the text')
  assert.equal((await ctx.app.inject({ url: cover.body.data.path })).statusCode, 200)

  assert.equal((await call(patient, 'GET', `/main/articles/${article.id}`)).status, 404)

  const published = await call(operator, 'POST', `/main/operator/articles/${article.id}/state`, {
    state: 'published',
  })
  assert.equal(published.data.state, 'published')
  assert.equal((await call(patient, 'GET', `/main/articles/${article.id}`)).status, 200)
  const found = await call(patient, 'GET', `/main/search?q=${encodeURIComponent('颈椎保养')}`)
  assert.ok(found.data.hits.some((hit: { id: string }) => hit.id === article.id))

  const edited = await call(operator, 'POST', '/main/operator/articles', {
    id: article.id,
    typeId,
    title: '冬季颈椎保养',
    summary: '颈椎',
    html: '<p>改过的正文</p>',
  })
  assert.equal(edited.data.state, 'published', 'an edit keeps the state')
  assert.deepEqual(edited.data.removed, [])

  await call(operator, 'POST', `/main/operator/articles/${article.id}/state`, {
    state: 'unpublished',
  })
  assert.equal((await call(patient, 'GET', `/main/articles/${article.id}`)).status, 404)

  const empty = await call(operator, 'POST', '/main/operator/articles', {
    typeId,
    title: '空',
    summary: '',
    html: '<script>x</script>',
  })
  assert.equal(empty.status, 400)
  assert.match(empty.error ?? '', /正文没有可显示的内容/)
  const noTitle = await call(operator, 'POST', '/main/operator/articles', {
    typeId,
    title: '  ',
    summary: '',
    html: '<p>x</p>',
  })
  assert.equal(noTitle.status, 400)
  assert.equal(noTitle.error, operatorContract.OPERATOR_MESSAGES.titleRequired)

  const log = await call(operator, 'GET', '/main/operator/actions?pageSize=50')
  const mine = log.data.items.filter((line: { targetId: string }) => line.targetId === article.id)
  assert.deepEqual(mine.map((line: { action: string }) => line.action).sort(), [
    'article-publish',
    'article-save',
    'article-save',
    'article-unpublish',
  ])
  assert.ok(mine.every((line: { operator: string }) => line.operator === operator.user.nickname))
})

test('a video: only an MP4 is taken, its length is read from the file, published it plays with ranges', async () => {
  const notVideo = await upload(operator, 'video', jpeg, 'a.mp4')
  assert.equal(notVideo.status, 400)
  assert.match(notVideo.body.error, /MP4/)
  const mp4 = readFileSync(DEMO_MP4)
  const file = await upload(operator, 'video', mp4, 'a.mp4')
  assert.equal(file.status, 200, file.body.error)
  assert.ok(
    file.body.data.durationSeconds! > 4 && file.body.data.durationSeconds! < 7,
    String(file.body.data.durationSeconds),
  )
  const poster = await upload(operator, 'poster', jpeg)
  const saved = await call(operator, 'POST', '/main/operator/videos', {
    category: 'firstAid',
    title: '运营上传的急救视频',
    summary: '测试',
    fileId: file.body.data.id,
    posterImageId: poster.body.data.id,
  })
  assert.equal(saved.status, 200, saved.error ?? '')
  assert.equal(saved.data.state, 'draft')
  assert.equal(saved.data.durationSeconds, Math.round(file.body.data.durationSeconds!))
  assert.equal((await call(patient, 'GET', `/main/videos/${saved.data.id}`)).status, 404)
  await call(operator, 'POST', `/main/operator/videos/${saved.data.id}/state`, {
    state: 'published',
  })
  const seen = await call(patient, 'GET', `/main/videos/${saved.data.id}`)
  assert.equal(seen.status, 200)
  const range = await ctx.app.inject({ url: seen.data.videoPath, headers: { range: 'bytes=0-99' } })
  assert.equal(range.statusCode, 206)
  assert.equal(range.rawPayload.length, 100)
  const list = await call(operator, 'GET', '/main/operator/videos?category=firstAid')
  assert.ok(list.data.items.some((v: { id: string }) => v.id === saved.data.id))

  // An edit names the same file and no poster: both stay.
  const edited = await call(operator, 'POST', '/main/operator/videos', {
    id: saved.data.id,
    category: 'firstAid',
    title: '改过标题的急救视频',
    summary: '',
    fileId: saved.data.fileId,
  })
  assert.equal(edited.status, 200, edited.error ?? '')
  assert.equal(edited.data.title, '改过标题的急救视频')
  assert.equal(edited.data.fileId, file.body.data.id)
  assert.equal(edited.data.posterPath, saved.data.posterPath)
  assert.equal(edited.data.state, 'published')

  const wrongKind = await call(operator, 'POST', '/main/operator/videos', {
    category: 'talk',
    title: '用封面当视频',
    summary: '',
    fileId: poster.body.data.id,
  })
  assert.equal(wrongKind.status, 400)
})

test('a reply reaches the sender; adopted, it pays 50 points once however many replies race', async () => {
  const sent = await call(patient, 'POST', '/main/feedback', {
    type: 'suggestion',
    text: '希望报告页能放大字体',
    imageIds: [],
  })
  assert.equal(sent.status, 200, sent.error ?? '')
  const open = await call(operator, 'GET', '/main/operator/feedback?status=open')
  assert.ok(open.data.items.some((f: { id: string }) => f.id === sent.data.id))

  const replies = await Promise.all(
    Array.from({ length: 6 }, (_, i) =>
      call(operator, 'POST', `/main/operator/feedback/${sent.data.id}/reply`, {
        text: `谢谢，已安排（${i}）`,
        adopted: true,
      }),
    ),
  )
  for (const reply of replies) assert.equal(reply.status, 200, reply.error ?? '')
  const points = await call(patient, 'GET', '/main/points')
  assert.equal(points.data.balance, 50)
  assert.equal(
    points.data.items.filter((e: { reason: string }) => e.reason === 'feedbackAdopted').length,
    1,
  )
  const mine = await call(patient, 'GET', '/main/feedback')
  const item = mine.data.items.find((f: { id: string }) => f.id === sent.data.id)
  assert.equal(item.status, 'replied')
  assert.match(item.reply.text, /谢谢，已安排/)
  const messages = await call(patient, 'GET', '/main/messages?kind=system')
  assert.ok(
    messages.data.items.some((m: { title: string }) => m.title === '您的反馈已被采纳'),
    JSON.stringify(messages.data.items.map((m: { title: string }) => m.title)),
  )
  const blank = await call(operator, 'POST', `/main/operator/feedback/${sent.data.id}/reply`, {
    text: ' ',
    adopted: false,
  })
  assert.equal(blank.status, 400)
  assert.equal(blank.error, operatorContract.OPERATOR_MESSAGES.replyRequired)
})

test('a feature switched off leaves the apps page at once; back on, it returns in its order', async () => {
  const before = await call(null, 'GET', '/main/app/features')
  assert.ok(before.data.some((f: { key: string }) => f.key === 'diet'))
  const off = await call(operator, 'POST', '/main/operator/features/diet', { enabled: false })
  assert.equal(off.status, 200)
  const after = await call(null, 'GET', '/main/app/features')
  assert.ok(!after.data.some((f: { key: string }) => f.key === 'diet'))
  const all = await call(operator, 'GET', '/main/operator/features')
  assert.equal(all.data.find((f: { key: string }) => f.key === 'diet').enabled, false)
  await call(operator, 'POST', '/main/operator/features/diet', { enabled: true, order: 1 })
  const back = await call(null, 'GET', '/main/app/features')
  assert.equal(back.data[0].key, 'diet')
  const unknown = await call(operator, 'POST', '/main/operator/features/nothing', { enabled: true })
  assert.equal(unknown.status, 404)
})

test('a hospital is added and edited; its key is shown once, works, and stops at revocation', async () => {
  const added = await call(operator, 'POST', '/main/operator/hospitals', {
    name: '运营测试医院',
    level: '二级甲等',
    city: '杭州市',
    regionCode: '330106',
    regionName: '西湖区',
  })
  assert.equal(added.status, 200, added.error ?? '')
  const badRegion = await call(operator, 'POST', '/main/operator/hospitals', {
    name: '错地区医院',
    regionCode: '33',
  })
  assert.equal(badRegion.status, 400)
  assert.match(badRegion.error ?? '', /6 位数字/)
  const duplicate = await call(operator, 'POST', '/main/operator/hospitals', {
    id: added.data.id,
    name: '示例市第一人民医院',
  })
  assert.equal(duplicate.status, 400)
  const half = await call(operator, 'POST', '/main/operator/hospitals', {
    id: added.data.id,
    name: '运营测试医院',
    latitude: 30.27,
  })
  assert.equal(half.status, 400)
  assert.equal(half.error, '经度和纬度请同时填写，或都不填')
  const edited = await call(operator, 'POST', '/main/operator/hospitals', {
    id: added.data.id,
    name: '运营测试医院（新院区）',
    address: '文三路 1 号',
    latitude: 30.2741,
    longitude: 120.1551,
  })
  assert.equal(edited.data.name, '运营测试医院（新院区）')
  assert.deepEqual([edited.data.latitude, edited.data.longitude], [30.2741, 120.1551])
  assert.equal(edited.data.address, '文三路 1 号')

  const nowhere = await call(operator, 'GET', `/main/operator/hospitals/${randomUUID()}/keys`)
  assert.equal(nowhere.status, 404)
  assert.equal(nowhere.error, '医院不存在')
  const issued = await call(operator, 'POST', `/main/operator/hospitals/${added.data.id}/keys`)
  assert.equal(issued.status, 200, issued.error ?? '')
  assert.ok(issued.data.key.startsWith(issued.data.prefix))
  const check = await checkHospitalKey(ctx.app.db, issued.data.key, ctx.clock.now())
  assert.equal(check.ok, true)
  const listed = await call(operator, 'GET', `/main/operator/hospitals/${added.data.id}/keys`)
  assert.equal(listed.data.length, 1)
  assert.equal(listed.data[0].key, undefined, 'the whole key is never listed')
  const revoked = await call(
    operator,
    'DELETE',
    `/main/operator/hospitals/${added.data.id}/keys/${issued.data.id}`,
  )
  assert.ok(revoked.data.revokedAt)
  const after = await checkHospitalKey(ctx.app.db, issued.data.key, ctx.clock.now())
  assert.equal(after.ok, false)
  const log = await call(operator, 'GET', '/main/operator/actions?pageSize=50')
  const lines = log.data.items.filter((l: { targetId: string }) => l.targetId === added.data.id)
  assert.ok(
    lines.every((l: { detail: string | null }) => !String(l.detail).includes(issued.data.key)),
  )
  // One clock tick for all of them here: the order of equal times is not asserted.
  assert.deepEqual(lines.map((l: { action: string }) => l.action).sort(), [
    'hospital-key-issue',
    'hospital-key-revoke',
    'hospital-save',
    'hospital-save',
  ])
})

test('an upload nothing names is removed after a day; a named one stays', async () => {
  const named = await upload(operator, 'cover', jpeg)
  const unnamed = await upload(operator, 'poster', jpeg)
  const types = await call(operator, 'GET', '/main/operator/article-types')
  await call(operator, 'POST', '/main/operator/articles', {
    typeId: types.data[0].id,
    title: '有封面的草稿',
    summary: '',
    html: '<p>正文</p>',
    coverImageId: named.body.data.id,
  })
  ctx.clock.advance(25 * 3600_000)
  const { operatorFiles: removed } = await purgeExpired(ctx.app.db, ctx.clock.now(), ctx.app.store)
  assert.ok(removed! >= 1)
  const left = await ctx.app.db
    .selectFrom('content_files')
    .select('id')
    .where('id', 'in', [named.body.data.id, unnamed.body.data.id])
    .execute()
  assert.deepEqual(
    left.map((row) => row.id),
    [named.body.data.id],
  )
})
