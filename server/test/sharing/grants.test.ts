import assert from 'node:assert/strict'
import { before, describe, test } from 'node:test'
import { isDeepStrictEqual } from 'node:util'
import {
  ACCOUNT_GRANTS_PER_DAY,
  GRANT_MESSAGES,
  PICKUP_ATTEMPTS_MAX,
  PICKUP_LOCK_MINUTES,
  PICKUP_WRONG_TOTAL_MAX,
} from '@contract/main/grants'
import { EXAM_NOT_FOUND } from '../../src/domain/records/access'
import { ingestFiles } from '../../src/domain/ingest/ingest'
import { freshUid, ID_A, personInstance, residentId } from '../dicomweb/read-support'
import { sharingWorld, type SharingWorld } from './support'

/*
 * Grants and share links (issue 9) through the HTTP API on a hand-moved clock, on both databases
 * (the runner's --pg): statuses, revocation at the next frame, the 提取码 limit, maxViews under a
 * burst, one view per session and record, the first-view message exactly once, no re-share, and a
 * private report shared only when named.
 */

const MINUTE = 60_000

describe('grants and share links', () => {
  let w: SharingWorld

  before(async () => {
    w = await sharingWorld()
  })

  async function linkGrant(options: Record<string, unknown> = {}) {
    const res = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [w.study.examId],
      reportIds: [],
      duration: '24h',
      ...options,
    })
    assert.equal(res.status, 200, JSON.stringify(res))
    return res.data as {
      grant: { id: string; status: string }
      link: { token: string; url: string; path: string; pickupCode: string | null; title: string }
    }
  }

  async function open(token: string, pickupCode?: string) {
    return w.call('POST', `/main/shares/${token}/open`, undefined, {
      ...(pickupCode === undefined ? {} : { pickupCode }),
    })
  }

  async function messagesOf(userId: string) {
    return w.app.db
      .selectFrom('messages')
      .selectAll()
      .where('user_id', '=', userId)
      .where('kind', '=', 'grant')
      .execute()
  }

  test('a link with 提取码: preview counts nothing, the visitor reads, one view per session, revoke stops the next frame', async () => {
    const { grant, link } = await linkGrant({ pickupCode: true })
    assert.match(link.token, /^[A-Za-z0-9_-]{22}$/)
    assert.match(link.pickupCode!, /^\d{4}$/)
    assert.equal(link.path, `/pages/share/share?token=${link.token}`)
    assert.ok(link.url.endsWith(link.path))
    assert.equal(link.title, '张**分享的影像')
    // Only hashes are stored.
    const row = await w.app.db
      .selectFrom('grants')
      .selectAll()
      .where('id', '=', grant.id)
      .executeTakeFirstOrThrow()
    assert.notEqual(row.token_hash, link.token)
    assert.ok(!JSON.stringify(row).includes(link.token))

    const preview = await w.call('GET', `/main/shares/${link.token}`)
    assert.equal(preview.status, 200)
    assert.equal(preview.data.needsPickupCode, true)
    assert.equal(preview.data.sharerMasked, '张*')
    assert.equal(preview.data.recordCount, 1)
    assert.equal((await w.call('GET', `/main/shares/${link.token}x`)).status, 404)

    const noCode = await open(link.token)
    assert.equal(noCode.status, 400)
    assert.equal(noCode.error, GRANT_MESSAGES.pickupRequired)
    const wrong = await open(link.token, link.pickupCode === '0000' ? '0001' : '0000')
    assert.equal(wrong.error, GRANT_MESSAGES.pickupWrong)
    const opened = await open(link.token, link.pickupCode!)
    assert.equal(opened.status, 200, JSON.stringify(opened))
    const visitor = opened.data.accessToken as string
    assert.match(visitor, /^yxs_/)
    assert.equal(opened.data.grant.watermark, '分享访客')
    // The session ends with the grant or after SHARE_SESSION_SECONDS, whichever comes first.
    assert.equal(
      opened.data.expiresAt,
      new Date(w.clock.now().getTime() + 2 * 3600_000).toISOString(),
    )

    const summary = await w.call('GET', `/main/shared/${grant.id}`, visitor)
    assert.equal(summary.status, 200)
    assert.deepEqual(
      summary.data.records.map((r: { kind: string; id: string }) => [r.kind, r.id]),
      [['exam', w.study.examId]],
    )
    const exam = await w.call('GET', `/main/shared/${grant.id}/exams/${w.study.examId}`, visitor)
    assert.equal(exam.status, 200)
    assert.equal(exam.data.report, null, 'the report was not shared')
    const report = await w.call(
      'GET',
      `/main/shared/${grant.id}/reports/${w.study.reportId}`,
      visitor,
    )
    assert.equal(report.status, 404)

    // 20 slices in parallel are one view.
    const frames = await Promise.all(Array.from({ length: 20 }, () => w.frame(w.study, visitor)))
    assert.deepEqual(new Set(frames.map((f) => f.status)), new Set([200]))
    assert.equal(frames[0]!.cache, 'private, no-store')
    const views = await w.call('GET', `/main/grants/${grant.id}/views`, w.alice.token)
    assert.equal(views.status, 200)
    assert.equal(views.data.length, 1)
    assert.equal(views.data[0].viewer, '分享访客')
    assert.equal(views.data[0].viewerKind, 'link')
    assert.equal(views.data[0].place, '本机')
    const listed = await w.call('GET', `/main/grants?examId=${w.study.examId}`, w.alice.token)
    const mine = listed.data.find((g: { id: string }) => g.id === grant.id)
    assert.equal(mine.views, 1)
    assert.equal(mine.opens, 1)
    assert.equal(mine.pickupCode, true)
    assert.equal(mine.status, 'active')
    const whoSaw = await w.call('GET', `/main/exams/${w.study.examId}/views`, w.alice.token)
    assert.ok(whoSaw.data.some((v: { grantId: string }) => v.grantId === grant.id))
    // Nobody else reads the owner's log.
    assert.equal((await w.call('GET', `/main/grants/${grant.id}/views`, w.carol.token)).status, 404)
    assert.equal(
      (await w.call('GET', `/main/exams/${w.study.examId}/views`, w.carol.token)).status,
      404,
    )

    const revoked = await w.call('DELETE', `/main/grants/${grant.id}`, w.alice.token)
    assert.equal(revoked.status, 200)
    assert.equal(revoked.data.status, 'revoked')
    const next = await w.frame(w.study, visitor)
    assert.equal(next.status, 403)
    assert.equal(next.error, GRANT_MESSAGES.ended)
    const again = await w.call('GET', `/main/shared/${grant.id}/exams/${w.study.examId}`, visitor)
    assert.equal(again.status, 403)
    assert.equal(again.error, GRANT_MESSAGES.ended)
    assert.equal((await w.call('GET', `/main/shares/${link.token}`)).data.status, 'revoked')
    assert.equal((await open(link.token, link.pickupCode!)).error, GRANT_MESSAGES.ended)
  })

  test('an account grant: 共享给我的, reads while active, 403 授权已失效 after expiry on the server clock', async () => {
    const s = await w.pushStudy()
    const created = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [s.examId],
      reportIds: [s.reportId],
      duration: '1h',
    })
    assert.equal(created.status, 200, JSON.stringify(created))
    assert.equal(created.data.link, null)
    assert.equal(created.data.grant.grantee.userId, w.bob.user.id)
    const id = created.data.grant.id as string

    const received = await w.call('GET', '/main/grants/received', w.bob.token)
    assert.ok(received.data.some((g: { id: string }) => g.id === id))
    assert.equal((await w.frame(s, w.bob.token)).status, 200)
    const report = await w.call('GET', `/main/shared/${id}/reports/${s.reportId}`, w.bob.token)
    assert.equal(report.status, 200)
    assert.equal(report.data.conclusion, '分享测试结论')
    // Carol holds nothing: the same answers as for records that do not exist.
    assert.equal((await w.frame(s, w.carol.token)).status, 404)
    assert.equal((await w.call('GET', `/main/shared/${id}`, w.carol.token)).status, 404)
    assert.equal((await w.call('GET', `/main/shared/${id}`)).status, 401)

    const views = await w.call('GET', `/main/grants/${id}/views`, w.alice.token)
    assert.equal(views.data.length, 2, 'the exam and the report, each once')
    assert.ok(views.data.every((v: { viewerKind: string }) => v.viewerKind === 'account'))

    w.clock.advance(61 * MINUTE)
    const late = await w.frame(s, w.bob.token)
    assert.equal(late.status, 403)
    assert.equal(late.error, GRANT_MESSAGES.ended)
    assert.equal(
      (await w.call('GET', `/main/shared/${id}`, w.bob.token)).error,
      GRANT_MESSAGES.ended,
    )
    const after = await w.call('GET', '/main/grants/received', w.bob.token)
    assert.ok(!after.data.some((g: { id: string }) => g.id === id))
    const listed = await w.call('GET', '/main/grants', w.alice.token)
    assert.equal(listed.data.find((g: { id: string }) => g.id === id).status, 'expired')
    // The owner still reads their own study.
    assert.equal((await w.frame(s, w.alice.token)).status, 200)
  })

  test('wrong 提取码 attempts are limited per link, and the limit passes', async () => {
    const { link } = await linkGrant({ pickupCode: true })
    const wrongCode = link.pickupCode === '1234' ? '4321' : '1234'
    const answers = await Promise.all(
      Array.from({ length: PICKUP_ATTEMPTS_MAX + 3 }, () => open(link.token, wrongCode)),
    )
    assert.equal(
      answers.filter((a) => a.error === GRANT_MESSAGES.pickupWrong).length,
      PICKUP_ATTEMPTS_MAX,
    )
    assert.equal(answers.filter((a) => a.status === 429).length, 3)
    const locked = await open(link.token, link.pickupCode!)
    assert.equal(locked.status, 429)
    assert.equal(locked.error, GRANT_MESSAGES.pickupLocked)
    w.clock.advance(PICKUP_LOCK_MINUTES * MINUTE + 1000)
    assert.equal((await open(link.token, link.pickupCode!)).status, 200)
  })

  test('20 wrong 提取码 in a link’s life end it and tell its owner, once, under parallel guesses', async () => {
    const { grant, link } = await linkGrant({ pickupCode: true })
    const wrongCode = link.pickupCode === '1234' ? '4321' : '1234'
    const before = (await messagesOf(w.alice.user.id)).length
    const answers: { status: number; error: string | null }[] = []
    // Four windows of 5 parallel guesses (each window's limit). The 15 minutes between them are
    // skipped by ending the window's counter, not by the clock (which would end the logins too).
    for (let round = 0; round < PICKUP_WRONG_TOTAL_MAX / PICKUP_ATTEMPTS_MAX; round++) {
      answers.push(
        ...(await Promise.all(
          Array.from({ length: PICKUP_ATTEMPTS_MAX }, () => open(link.token, wrongCode)),
        )),
      )
      await w.app.db.deleteFrom('limit_counters').where('key', '=', `pickup:${grant.id}`).execute()
    }
    assert.equal(answers.filter((a) => a.error === GRANT_MESSAGES.pickupWrong).length, 19)
    assert.equal(answers.filter((a) => a.error === GRANT_MESSAGES.pickupExhausted).length, 1)
    // Over: the right code too, and the owner's list says 已撤销.
    const late = await open(link.token, link.pickupCode!)
    assert.equal(late.status, 403)
    assert.equal(late.error, GRANT_MESSAGES.ended)
    const listed = await w.call('GET', '/main/grants', w.alice.token)
    assert.equal(listed.data.find((g: { id: string }) => g.id === grant.id).status, 'revoked')
    const messages = await messagesOf(w.alice.user.id)
    assert.equal(messages.length, before + 1)
    assert.match(messages.find((m) => m.title === '分享链接已自动失效')!.body, /20 次输错提取码/)
  })

  test('through a grant DICOMweb shows the patient as the pages do: masked name, no ID number, no files', async () => {
    const { grant, link } = await linkGrant()
    const visitor = (await open(link.token)).data.accessToken as string
    const s = w.study
    const get = (url: string, token: string, accept = 'application/dicom+json') =>
      w.app.inject({ url, headers: { authorization: `Bearer ${token}`, accept } })
    const tagsOf = (body: string) => JSON.parse(body) as Record<string, { Value?: unknown[] }>[]
    const identity = 'includefield=00100010,00100020,00100030,00102154'
    for (const url of [
      '/dicomweb/studies?includefield=all',
      `/dicomweb/studies/${s.study}/series?${identity}`,
      `/dicomweb/studies/${s.study}/instances?${identity}`,
      `/dicomweb/studies/${s.study}/series/${s.series}/instances?${identity}`,
      `/dicomweb/series?${identity}`,
      `/dicomweb/instances?${identity}`,
      `/dicomweb/studies/${s.study}/series/${s.series}/metadata`,
      `/dicomweb/studies/${s.study}/series/${s.series}/instances/${s.sop}/metadata`,
    ]) {
      const seen = await get(url, visitor)
      assert.equal(seen.statusCode, 200, seen.body)
      assert.ok(!seen.body.includes(ID_A), `${url} shows the ID number`)
      const [row] = tagsOf(seen.body)
      assert.equal(row!['00100020'], undefined)
      assert.deepEqual(row!['00100010']?.Value, [{ Alphabetic: '张*' }], url)
      // The owner's own read keeps everything.
      const own = await get(url, w.alice.token)
      assert.ok(own.body.includes(ID_A), `${url} for the owner`)
    }
    // Filters match what the reader sees, not what is hidden: no guess is confirmed.
    for (const filter of [
      `PatientID=${ID_A}`,
      `PatientID=${ID_A.slice(0, 6)}*`,
      'PatientName=张三',
      'PatientName=张三*',
    ]) {
      const url = `/dicomweb/studies?${filter}`
      assert.deepEqual(tagsOf((await get(url, visitor)).body), [], `${filter} through the link`)
      assert.equal(tagsOf((await get(url, w.alice.token)).body).length > 0, true, filter)
    }
    const file = await get(
      `/dicomweb/studies/${s.study}/series/${s.series}/instances/${s.sop}`,
      visitor,
      'multipart/related; type="application/dicom"; transfer-syntax=*',
    )
    assert.equal(file.statusCode, 403)
    assert.equal((file.json() as { error: string }).error, GRANT_MESSAGES.noFiles)
    // A refused download is not a view: a fresh link asked only for the file logs nothing.
    const fresh = await linkGrant()
    const freshVisitor = (await open(fresh.link.token)).data.accessToken as string
    const refused = await get(
      `/dicomweb/studies/${s.study}`,
      freshVisitor,
      'multipart/related; type="application/dicom"',
    )
    assert.equal(refused.statusCode, 403)
    const logged = await w.app.db
      .selectFrom('grant_views')
      .select('id')
      .where('grant_id', '=', fresh.grant.id)
      .execute()
    assert.deepEqual(logged, [])
    // Frames (what the viewer draws) still come.
    assert.equal((await w.frame(s, visitor)).status, 200)
    // The shared exam page says no more: a masked name, no birth date.
    const page = await w.call('GET', `/main/shared/${grant.id}/exams/${s.examId}`, visitor)
    assert.equal(page.status, 200, JSON.stringify(page))
    assert.equal(page.data.patientBirthDate, null)
    assert.equal(page.data.patientNameMasked, '张*')
    assert.ok(!JSON.stringify(page.data).includes(ID_A))
  })

  /** alice grants bob a new study for 24 h, and bob then uploads his own copy of that study. */
  async function grantToBobWithHisOwnCopy() {
    const s = await w.pushStudy()
    const made = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [s.examId],
      reportIds: [],
      duration: '24h',
    })
    assert.equal(made.status, 200, JSON.stringify(made))
    await ingestFiles(
      { db: w.app.db, store: w.app.store, cipher: w.app.personalCipher, now: () => w.clock.now() },
      { kind: 'upload', userId: w.bob.user.id },
      [
        personInstance({
          study: s.study,
          series: freshUid(),
          sop: freshUid(),
          idNumber: residentId('11010119800101000'),
          name: '上传者',
        }),
      ],
    )
    return { s, grantId: (made.data as { grant: { id: string } }).grant.id }
  }

  test('a grantee’s own copy of the shared study (same StudyInstanceUID) does not unmask hers', async () => {
    // bob uploads a file that claims to belong to her study.
    const { s } = await grantToBobWithHisOwnCopy()
    for (const url of [
      '/dicomweb/studies?includefield=all',
      `/dicomweb/studies/${s.study}/instances?includefield=00100010,00100020,00100030`,
      `/dicomweb/studies/${s.study}/series?includefield=00100010,00100020,00100030`,
    ]) {
      const res = await w.app.inject({
        url,
        headers: { authorization: `Bearer ${w.bob.token}`, accept: 'application/dicom+json' },
      })
      assert.equal(res.statusCode, 200, res.body)
      assert.ok(!res.body.includes(ID_A), `${url}: her ID number`)
      assert.ok(!res.body.includes('张三'), `${url}: her name`)
    }
  })

  test('a grantee reading their own copy of a shared study is still in 谁看过', async () => {
    // bob holds his own copy of the same study (he uploaded what she gave him).
    const { s, grantId } = await grantToBobWithHisOwnCopy()
    const views = () =>
      w.app.db
        .selectFrom('grant_views')
        .select(['exam_id', 'viewer_user_id'])
        .where('grant_id', '=', grantId)
        .execute()
    assert.deepEqual(await views(), [])
    for (const url of [
      `/dicomweb/studies/${s.study}/metadata`,
      `/dicomweb/studies/${s.study}/series?includefield=00100010`,
    ]) {
      const res = await w.app.inject({
        url,
        headers: { authorization: `Bearer ${w.bob.token}`, accept: 'application/dicom+json' },
      })
      assert.equal(res.statusCode, 200, `${url}: ${res.body}`)
    }
    const logged = await views()
    assert.ok(logged.length >= 1, 'his reads are views of her exam')
    for (const view of logged) {
      assert.equal(view.exam_id, s.examId)
      assert.equal(view.viewer_user_id, w.bob.user.id)
    }
  })

  test('grants by phone number are bounded per person per day, under a burst', async () => {
    const answers = await Promise.all(
      Array.from({ length: ACCOUNT_GRANTS_PER_DAY + 5 }, (_, i) =>
        w.call('POST', '/main/grants', w.carol.token, {
          audience: 'account',
          mobile: `1390000${String(i).padStart(4, '0')}`,
          examIds: [w.study.examId],
          reportIds: [],
          duration: '1h',
        }),
      ),
    )
    // Each of the first 30 was looked up (unregistered, or carol may not share alice's exam).
    assert.equal(
      answers.filter((a) => a.status === 400 || a.status === 404).length,
      ACCOUNT_GRANTS_PER_DAY,
      JSON.stringify(answers.map((a) => a.error)),
    )
    const refused = answers.filter((a) => a.status === 429)
    assert.equal(refused.length, 5)
    assert.equal(refused[0]!.error, GRANT_MESSAGES.accountGrantsExhausted)
  })

  test('maxViews 3: 20 parallel openings open exactly 3; the opened sessions keep working', async () => {
    const { grant, link } = await linkGrant({ maxViews: 3 })
    const opens = await Promise.all(Array.from({ length: 20 }, () => open(link.token)))
    const ok = opens.filter((o) => o.status === 200)
    assert.equal(ok.length, 3)
    assert.ok(
      opens
        .filter((o) => o.status !== 200)
        .every((o) => o.status === 403 && o.error === GRANT_MESSAGES.ended),
    )
    const preview = await w.call('GET', `/main/shares/${link.token}`)
    assert.equal(preview.data.status, 'exhausted')
    assert.equal(preview.data.statusLabel, '次数已用完')
    assert.equal((await w.frame(w.study, ok[0]!.data.accessToken)).status, 200)
    const row = await w.app.db
      .selectFrom('grants')
      .select('opens')
      .where('id', '=', grant.id)
      .executeTakeFirstOrThrow()
    assert.equal(Number(row.opens), 3)
  })

  test('the first view of a grant writes exactly one message, under a burst of two visitors', async () => {
    const { grant, link } = await linkGrant()
    const before = (await messagesOf(w.alice.user.id)).length
    const a = (await open(link.token)).data.accessToken as string
    const b = (await open(link.token)).data.accessToken as string
    assert.equal((await messagesOf(w.alice.user.id)).length, before, 'opening is not a view')
    await Promise.all(Array.from({ length: 20 }, (_, i) => w.frame(w.study, i % 2 === 0 ? a : b)))
    const messages = await messagesOf(w.alice.user.id)
    assert.equal(messages.length, before + 1)
    // Tapping it opens 授权记录: the link names the app's route (src/routes.ts `grantList`), not a
    // path, as contract/main/messages.ts says; the app's messages test opens that name.
    const mine = messages.filter((message) =>
      isDeepStrictEqual(JSON.parse(message.link!), {
        route: 'grantList',
        params: { grantId: grant.id },
      }),
    )
    assert.equal(mine.length, 1, JSON.stringify(messages))
    assert.match(mine[0]!.body, /分享访客/)
    const views = await w.app.db
      .selectFrom('grant_views')
      .selectAll()
      .where('grant_id', '=', grant.id)
      .execute()
    assert.equal(views.length, 2)
    // A later read within the minute writes nothing; after it, last_at moves.
    const first = views[0]!.last_at
    w.clock.advance(2 * MINUTE)
    await w.frame(w.study, a)
    const moved = await w.app.db
      .selectFrom('grant_views')
      .select('last_at')
      .where('grant_id', '=', grant.id)
      .orderBy('last_at', 'desc')
      .executeTakeFirstOrThrow()
    assert.ok(moved.last_at > first)
  })

  test('no re-share: only the person’s own records; a grantee or visitor cannot grant what they read', async () => {
    const s = await w.pushStudy()
    await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [s.examId],
      reportIds: [],
      duration: '7d',
    })
    const reshare = await w.call('POST', '/main/grants', w.bob.token, {
      audience: 'link',
      examIds: [s.examId],
      reportIds: [],
      duration: '1h',
    })
    assert.equal(reshare.status, 404)
    assert.equal(reshare.error, EXAM_NOT_FOUND)
    const byReport = await w.call('POST', '/main/grants', w.bob.token, {
      audience: 'link',
      examIds: [],
      reportIds: [s.reportId],
      duration: '1h',
    })
    assert.equal(byReport.status, 404)
    const self = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.alice.mobile,
      examIds: [s.examId],
      reportIds: [],
      duration: '1h',
    })
    assert.equal(self.error, GRANT_MESSAGES.self)
    const none = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'link',
      examIds: [],
      reportIds: [],
      duration: '1h',
    })
    assert.equal(none.error, GRANT_MESSAGES.noRecords)
    const linkOnly = await w.call('POST', '/main/grants', w.alice.token, {
      audience: 'account',
      mobile: w.bob.mobile,
      examIds: [s.examId],
      reportIds: [],
      duration: '1h',
      maxViews: 3,
    })
    assert.equal(linkOnly.error, GRANT_MESSAGES.linkOnly)
    // maxViews is a JSON number: nothing else is read as one.
    for (const maxViews of [true, '0x10', ' 7 ', '3']) {
      const loose = await w.call('POST', '/main/grants', w.alice.token, {
        audience: 'link',
        examIds: [s.examId],
        reportIds: [],
        duration: '1h',
        maxViews,
      })
      assert.equal(loose.status, 400, String(maxViews))
      assert.equal(loose.error, GRANT_MESSAGES.maxViews)
    }
    // Another person's grant cannot be revoked by a stranger.
    const mine = await linkGrant()
    assert.equal(
      (await w.call('DELETE', `/main/grants/${mine.grant.id}`, w.carol.token)).status,
      404,
    )
  })

  test('a private report is covered only when named itself', async () => {
    const s = await w.pushStudy()
    await w.app.db
      .insertInto('exam_user_states')
      .values({
        user_id: w.alice.user.id,
        exam_id: s.examId,
        report_private: 1,
        report_read_at: null,
        archived_at: null,
        hidden_at: null,
        updated_at: w.clock.now().toISOString(),
      })
      .execute()
    const imagesOnly = await linkGrant({ examIds: [s.examId] })
    const v1 = (await open(imagesOnly.link.token)).data.accessToken as string
    const exam = await w.call('GET', `/main/shared/${imagesOnly.grant.id}/exams/${s.examId}`, v1)
    assert.equal(exam.status, 200)
    assert.equal(exam.data.report, null)
    const hidden = await w.call(
      'GET',
      `/main/shared/${imagesOnly.grant.id}/reports/${s.reportId}`,
      v1,
    )
    assert.equal(hidden.status, 404)

    const named = await linkGrant({ examIds: [s.examId], reportIds: [s.reportId] })
    const record = (await w.call('GET', `/main/grants?examId=${s.examId}`, w.alice.token)).data
      .find((g: { id: string }) => g.id === named.grant.id)
      .records.find((r: { kind: string }) => r.kind === 'report')
    assert.equal(record.private, true)
    const v2 = (await open(named.link.token)).data.accessToken as string
    const report = await w.call('GET', `/main/shared/${named.grant.id}/reports/${s.reportId}`, v2)
    assert.equal(report.status, 200)
    assert.equal(report.data.conclusion, '分享测试结论')
    assert.equal(report.data.locked, false)
    // Another grant's visitor gets nothing of this one.
    assert.equal((await w.call('GET', `/main/shared/${named.grant.id}`, v1)).status, 404)
  })
})
