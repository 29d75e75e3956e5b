import assert from 'node:assert/strict'
import { describe, test } from 'node:test'
import { ConfigError, loadConfig } from '../../src/config'
import { sharingWorld } from './support'

/*
 * Where a share link points (issue 9): PUBLIC_URL when set; without it a demo or LAN server uses the
 * address the request came to, and a production server refuses to make a link (a Host header is
 * the caller's own), before anything is written.
 */

describe('share links and PUBLIC_URL', () => {
  test('PUBLIC_URL is a full http(s) address, kept without its trailing slash', () => {
    const base = { LOG_LEVEL: 'silent', DATABASE_URL: ':memory:' }
    assert.equal(
      loadConfig({ ...base, PUBLIC_URL: 'https://yx.example.cn/' }).publicUrl,
      'https://yx.example.cn',
    )
    assert.equal(loadConfig(base).publicUrl, null)
    for (const bad of ['yx.example.cn', 'ftp://yx.example.cn', 'https://yx.example.cn/?a=1']) {
      assert.throws(
        () => loadConfig({ ...base, PUBLIC_URL: bad }),
        (error: unknown) => error instanceof ConfigError && error.message.includes('PUBLIC_URL'),
        bad,
      )
    }
  })

  test('a link points at PUBLIC_URL, whatever Host the request named', async () => {
    const w = await sharingWorld({ publicUrl: 'https://yx.example.cn' })
    const res = await w.app.inject({
      method: 'POST',
      url: '/main/grants',
      headers: { authorization: `Bearer ${w.alice.token}`, host: 'evil.example.com' },
      payload: { audience: 'link', examIds: [w.study.examId], reportIds: [], duration: '1h' },
    })
    assert.equal(res.statusCode, 200, res.body)
    const link = (res.json() as { data: { link: { url: string; token: string } } }).data.link
    assert.equal(link.url, `https://yx.example.cn/pages/share/share?token=${link.token}`)
  })

  test('in production without PUBLIC_URL a link is refused and nothing is written; accounts still work', async () => {
    const w = await sharingWorld({ production: true, publicUrl: null })
    const refused = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [w.study.examId],
      reportIds: [],
      duration: '1h',
    })
    // A 5xx says 服务暂不可用 to the person (SPEC: error null); the operator's log says why.
    assert.equal(refused.status, 503)
    assert.equal(refused.error, null)
    const rows = await w.app.db.selectFrom('grants').select('id').execute()
    assert.equal(rows.length, 0)
    const account = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [w.study.examId],
      reportIds: [],
      duration: '1h',
    })
    assert.equal(account.status, 200, JSON.stringify(account))
  })
})
