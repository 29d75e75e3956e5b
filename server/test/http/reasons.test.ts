import assert from 'node:assert/strict'
import { randomUUID } from 'node:crypto'
import { before, describe, test } from 'node:test'
import { FAMILY_MESSAGES } from '@contract/main/family'
import { GRANT_MESSAGES } from '@contract/main/grants'
import { REASONS } from '@contract/reasons'
import { sharingWorld, type SharingWorld } from '../sharing/support'

/*
 * Issue 19 §2: a refusal the app's code acts on carries a stable `reason` in the envelope, beside
 * the Chinese `error` that is only for people; every other answer carries reason null. Runs on both
 * databases (the runner's --pg). The refresh race (session-families), the full store
 * (records/storage-full), the lock (login-limits), the phone and the ID card (account, id-cards,
 * family-members) are checked where those refusals are made.
 */

describe('the envelope’s reason', () => {
  let w: SharingWorld

  before(async () => {
    w = await sharingWorld()
  })

  /** The whole envelope of one call. */
  async function envelopeOf(method: string, url: string, token?: string, payload?: unknown) {
    const res = await w.app.inject({
      method: method as 'GET',
      url,
      headers: token ? { authorization: `Bearer ${token}` } : {},
      ...(payload === undefined ? {} : { payload: payload as object }),
    })
    return { status: res.statusCode, body: res.json() as Record<string, unknown> }
  }

  function frameOf(token: string) {
    const { study, series, sop } = w.study
    return w.app.inject({
      url: `/dicomweb/studies/${study}/series/${series}/instances/${sop}/frames/1`,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'multipart/related; type="application/octet-stream"; transfer-syntax=*',
      },
    })
  }

  async function openedLink() {
    const created = await envelopeOf('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [w.study.examId],
      reportIds: [],
      duration: '24h',
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const { grant, link } = created.body.data as { grant: { id: string }; link: { token: string } }
    const opened = await envelopeOf('POST', `/main/shares/${link.token}/open`, undefined, {})
    assert.equal(opened.status, 200, JSON.stringify(opened.body))
    const visitor = (opened.body.data as { accessToken: string }).accessToken
    return { grantId: grant.id, token: link.token, visitor }
  }

  test('a success and a refusal nobody branches on carry reason null', async () => {
    const listed = await envelopeOf('GET', '/main/images', w.alice.token)
    assert.equal(listed.status, 200)
    assert.deepEqual(Object.keys(listed.body).sort(), [
      'code',
      'data',
      'error',
      'message',
      'reason',
    ])
    assert.equal(listed.body.reason, null)
    const { token } = await openedLink()
    const wrongCode = await envelopeOf('POST', `/main/shares/${token}/open`, undefined, {
      pickupCode: 'abcd',
    })
    assert.equal(wrongCode.status, 400)
    assert.equal(wrongCode.body.reason, null)
    const missing = await envelopeOf('GET', `/main/exams/${randomUUID()}`, w.alice.token)
    assert.equal(missing.status, 404)
    assert.equal(missing.body.reason, null)
  })

  test('family.not-managed: naming a 就诊人 the caller does not manage', async () => {
    const refused = await envelopeOf(
      'GET',
      `/main/images?personId=${w.alice.user.id}`,
      w.carol.token,
    )
    assert.equal(refused.status, 403)
    assert.deepEqual(refused.body, {
      code: 403,
      message: '无权访问',
      data: null,
      error: FAMILY_MESSAGES.notManaged,
      reason: REASONS.familyNotManaged,
    })
  })

  test('grant.link-invalid: an unknown link, and a share session nobody opened', async () => {
    const unknown = await envelopeOf('GET', `/main/shares/${'x'.repeat(22)}`)
    assert.equal(unknown.status, 404)
    assert.equal(unknown.body.error, GRANT_MESSAGES.linkInvalid)
    assert.equal(unknown.body.reason, REASONS.grantLinkInvalid)
    const { grantId } = await openedLink()
    const forged = await envelopeOf('GET', `/main/shared/${grantId}`, `yxs_${randomUUID()}`)
    assert.equal(forged.status, 403)
    assert.equal(forged.body.error, GRANT_MESSAGES.linkInvalid)
    assert.equal(forged.body.reason, REASONS.grantLinkInvalid)
  })

  test('grant.ended: a revoked grant, for its visitor’s reads, frames and a new opening', async () => {
    const { grantId, token, visitor } = await openedLink()
    const revoked = await envelopeOf('DELETE', `/main/grants/${grantId}`, w.alice.token)
    assert.equal(revoked.status, 200)
    for (const url of [
      `/main/shared/${grantId}`,
      `/main/shared/${grantId}/exams/${w.study.examId}`,
    ]) {
      const read = await envelopeOf('GET', url, visitor)
      assert.equal(read.status, 403, url)
      assert.equal(read.body.error, GRANT_MESSAGES.ended, url)
      assert.equal(read.body.reason, REASONS.grantEnded, url)
    }
    const frame = await frameOf(visitor)
    assert.equal(frame.statusCode, 403)
    assert.equal(frame.json().reason, REASONS.grantEnded)
    const reopened = await envelopeOf('POST', `/main/shares/${token}/open`, undefined, {})
    assert.equal(reopened.status, 403)
    assert.equal(reopened.body.reason, REASONS.grantEnded)
  })

  test('grant.ended: a signed-in grantee reading a grant that was revoked', async () => {
    const created = await envelopeOf('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [w.study.examId],
      reportIds: [],
      duration: '24h',
    })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const grantId = (created.body.data as { grant: { id: string } }).grant.id
    assert.equal((await envelopeOf('GET', `/main/shared/${grantId}`, w.bob.token)).status, 200)
    await envelopeOf('DELETE', `/main/grants/${grantId}`, w.alice.token)
    const read = await envelopeOf('GET', `/main/shared/${grantId}`, w.bob.token)
    assert.equal(read.status, 403)
    assert.equal(read.body.reason, REASONS.grantEnded)
    // DICOMweb with the grantee's own login: every grant on the study has ended.
    const frame = await frameOf(w.bob.token)
    assert.equal(frame.statusCode, 403)
    assert.equal(frame.json().reason, REASONS.grantEnded)
  })
})
