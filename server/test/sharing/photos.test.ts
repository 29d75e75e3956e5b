import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { GRANT_MESSAGES } from '@contract/main/grants'
import { encodePng } from '../../src/dicom/png'
import { ingestFiles } from '../../src/domain/ingest/ingest'
import { freshUid, ID_A, personInstance } from '../dicomweb/read-support'
import { sharingWorld, type SharingWorld } from './support'

/*
 * The report photos of a shared upload (issue 9): whoever the grant lets see the exam sees its photos
 * too — a grantee with their login, a link visitor with the yxs_ token — logged as a view of the
 * exam and never cached; an ended grant answers 授权已失效 to its holder; a grant of another exam
 * opens none of them. Runs on both databases (the runner's --pg).
 */

const PHOTO = encodePng(new Uint8Array(160 * 120).fill(128), 160, 120, 1)

describe('report photos through a grant', () => {
  let w: SharingWorld
  let uploadExam: string
  let photo: string

  async function getPhoto(token: string) {
    const res = await w.app.inject({
      method: 'GET',
      url: `/main/dicom-upload/files/${photo}`,
      headers: { authorization: `Bearer ${token}` },
    })
    const error = res.statusCode === 200 ? null : (res.json() as { error: string }).error
    return {
      status: res.statusCode,
      cache: res.headers['cache-control'],
      error,
      type: res.headers['content-type'],
    }
  }

  before(async () => {
    w = await sharingWorld()
    const uids = { study: freshUid(), series: freshUid(), sop: freshUid() }
    await ingestFiles(
      { db: w.app.db, store: w.app.store, cipher: w.app.personalCipher, now: w.clock.now },
      { kind: 'upload', userId: w.alice.user.id },
      [personInstance({ ...uids, idNumber: ID_A, name: '张三', description: '自传影像' })],
    )
    uploadExam = (
      await w.app.db
        .selectFrom('exams')
        .select('id')
        .where('study_uid', '=', uids.study)
        .executeTakeFirstOrThrow()
    ).id
    const boundary = '----photo-boundary'
    const res = await w.app.inject({
      method: 'POST',
      url: `/main/dicom-upload/exams/${uploadExam}/photos`,
      headers: {
        authorization: `Bearer ${w.alice.token}`,
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        PHOTO,
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]),
    })
    assert.equal(res.statusCode, 200, res.body)
    photo = (res.json() as { data: { files: { id: string }[] } }).data.files[0]!.id
  })

  test('the owner reads her photo, cached as before', async () => {
    const own = await getPhoto(w.alice.token)
    assert.equal(own.status, 200)
    assert.match(own.cache ?? '', /immutable/)
  })

  test('a link visitor and a grantee read it, logged as a view of the exam, never cached', async () => {
    const made = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [uploadExam],
      reportIds: [],
      duration: '24h',
    })
    assert.equal(made.status, 200, JSON.stringify(made))
    const opened = await w.call('POST', `/main/shares/${made.data.link.token}/open`, undefined, {})
    assert.equal(opened.status, 200, JSON.stringify(opened))
    const visitor = await getPhoto(opened.data.accessToken)
    assert.equal(visitor.status, 200, JSON.stringify(visitor))
    assert.equal(visitor.cache, 'private, no-store')
    const views = await w.call('GET', `/main/grants/${made.data.grant.id}/views`, w.alice.token)
    assert.deepEqual(
      views.data.map((v: { record: { examId: string } }) => v.record.examId),
      [uploadExam],
    )

    const account = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [uploadExam],
      reportIds: [],
      duration: '1h',
    })
    assert.equal(account.status, 200, JSON.stringify(account))
    const grantee = await getPhoto(w.bob.token)
    assert.equal(grantee.status, 200, JSON.stringify(grantee))
    assert.equal(grantee.cache, 'private, no-store')

    // Revoked: the holder is told it has ended, at the next request.
    await w.call('DELETE', `/main/grants/${account.data.grant.id}`, w.alice.token)
    const after = await getPhoto(w.bob.token)
    assert.equal(after.status, 403)
    assert.equal(after.error, GRANT_MESSAGES.ended)
  })

  test('a grant of another exam, or none, opens no photo of this one', async () => {
    const made = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [w.study.examId],
      reportIds: [],
      duration: '24h',
    })
    const opened = await w.call('POST', `/main/shares/${made.data.link.token}/open`, undefined, {})
    const other = await getPhoto(opened.data.accessToken)
    assert.equal(other.status, 404)
    const stranger = await getPhoto(w.carol.token)
    assert.equal(stranger.status, 404)
    assert.equal(stranger.error, (await missing()).error)
  })

  async function missing() {
    const res = await w.app.inject({
      method: 'GET',
      url: '/main/dicom-upload/files/00000000-0000-4000-8000-000000000000',
      headers: { authorization: `Bearer ${w.carol.token}` },
    })
    return { status: res.statusCode, error: (res.json() as { error: string }).error }
  }
})
