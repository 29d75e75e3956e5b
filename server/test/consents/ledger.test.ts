import assert from 'node:assert/strict'
import { test } from 'node:test'
import { CONSENT_TEXT_VERSIONS, type ConsentPurpose } from '@contract/main/consents'
import { loginWithWechat } from '../../src/domain/identity'
import { examTitle } from '../../src/domain/records'
import { codeFor, freshMobile } from '../domain/identity/support'
import { aiWorld } from '../ai/support'
import {
  answeredConsultation,
  application,
  type ConsultWorld,
  expert,
  patient,
} from '../consultations/support'
import { expertWorld, pendingApplicant } from '../experts/support'
import { validIdNumber } from '../domain/profile/support'
import { readOutbox } from '../../src/providers/sms'

/*
 * The consent ledger (issue 24). The walk: every operation of /openapi.json whose input carries a
 * consent (a field named consent…, agree…) must be driven here and must write its row; so must the
 * operations that are a consent by themselves (a grant, an AI analysis, publishing a Q&A, the app's
 * own consents). An operation added with a consent field and no row FAILS this file until it has one.
 */

type Row = {
  kind: string
  action: string
  subject_user_id: string | null
  target_id: string | null
}

const rowsOf = async (world: ConsultWorld, purpose: ConsentPurpose): Promise<Row[]> =>
  world.app.db
    .selectFrom('consents')
    .select(['kind', 'action', 'subject_user_id', 'target_id'])
    .where('kind', '=', purpose)
    .execute()

/** The property names anywhere in an operation's input (body schema and parameters). */
function inputNames(operation: Record<string, unknown>): string[] {
  const names = new Set<string>()
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (key === 'properties' && value && typeof value === 'object') {
        for (const name of Object.keys(value)) names.add(name)
      }
      walk(value)
    }
  }
  walk(operation.requestBody)
  for (const parameter of (operation.parameters ?? []) as { name: string }[])
    names.add(parameter.name)
  return [...names]
}

test('every operation that asks for a consent writes its row in the ledger', async () => {
  const { world, asker, doctor, examId } = await aiWorld()
  const openapi = (await world.app.inject({ method: 'GET', url: '/openapi.json' })).json() as {
    paths: Record<string, Record<string, Record<string, unknown>>>
  }
  const asking: string[] = []
  for (const [path, operations] of Object.entries(openapi.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      if (inputNames(operation).some((name) => /consent|agree|guardian/i.test(name))) {
        asking.push(`${method.toUpperCase()} ${path}`)
      }
    }
  }
  assert.ok(asking.length >= 4, `the walk finds the consent fields: ${asking.join(', ')}`)

  const register = async (url: string) => {
    const mobile = freshMobile()
    const code = await codeFor(world.app, mobile, 'register')
    const res = await world.app.inject({
      method: 'POST',
      url,
      payload: { mobile, code, password: 'abc12345', agreed: true },
    })
    assert.equal(res.statusCode, 200, res.body)
  }
  let completed: string | null = null
  const drivers: Record<string, { purposes: ConsentPurpose[]; run: () => Promise<void> }> = {
    'POST /sso/register': { purposes: ['privacy', 'user'], run: () => register('/sso/register') },
    'POST /main/account/register': {
      purposes: ['privacy', 'user'],
      run: () => register('/main/account/register'),
    },
    'POST /main/consultations': {
      purposes: ['consult-share'],
      run: async () => {
        const { input } = await application(world, asker, doctor)
        const created = await world.call(asker, 'POST', '/main/consultations', input)
        assert.equal(created.status, 200, created.error ?? '')
      },
    },
    'POST /main/experts/application/submit': {
      // The application needs its own world (photos, the agreement's version): its row is checked
      // there, so none is counted here.
      purposes: [],
      run: async () => {
        const experts = await expertWorld()
        const { user } = await pendingApplicant(experts)
        const rows = await experts.ctx.app.db
          .selectFrom('consents')
          .select(['kind', 'version', 'channel'])
          .where('user_id', '=', user.user.id)
          .where('kind', '=', 'expert')
          .execute()
        assert.deepEqual(rows, [
          { kind: 'expert', version: experts.agreementVersion, channel: '专家认证 · 提交认证' },
        ])
      },
    },
    'POST /main/grants': {
      purposes: ['grant'],
      run: async () => {
        const grant = await world.call(asker, 'POST', '/main/grants', {
          audience: 'account',
          mobile: doctor.mobile,
          duration: '7d',
          examIds: [examId],
          reportIds: [],
        })
        assert.equal(grant.status, 200, grant.error ?? '')
      },
    },
    'POST /main/exams/{examId}/ai-analysis': {
      purposes: ['ai-analysis'],
      run: async () => {
        const applied = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`)
        assert.equal(applied.status, 200, applied.error ?? '')
      },
    },
    'POST /main/consultations/{consultationId}/public': {
      purposes: ['public-qa'],
      run: async () => {
        const second = await expert(world, { name: '周专家' })
        completed = await answeredConsultation(world, asker, second)
        await world.call(asker, 'POST', `/main/consultations/${completed}/adopt`)
        const published = await world.call(
          asker,
          'POST',
          `/main/consultations/${completed}/public`,
          {
            public: true,
          },
        )
        assert.equal(published.status, 200, published.error ?? '')
      },
    },
    'POST /main/family/children': {
      purposes: ['family'],
      run: async () => {
        const added = await world.call(asker, 'POST', '/main/family/children', {
          name: '王小宝',
          idNumber: validIdNumber('20200101', 77),
          guardianConfirmed: true,
        })
        assert.equal(added.status, 200, added.error ?? '')
      },
    },
    'POST /main/family/adults': {
      purposes: ['family'],
      run: async () => {
        const mobile = freshMobile()
        const sent = await world.call(asker, 'POST', '/main/family/adults/code', { mobile })
        assert.equal(sent.status, 200, sent.error ?? '')
        const code = (await readOutbox(world.app.db, mobile, { purposes: ['family'] })).at(-1)!.code
        const added = await world.call(asker, 'POST', '/main/family/adults', {
          mobile,
          code,
          relation: 'parent',
        })
        assert.equal(added.status, 200, added.error ?? '')
      },
    },
    'POST /main/consents': {
      purposes: ['subscribe'],
      run: async () => {
        const recorded = await world.call(asker, 'POST', '/main/consents', {
          purpose: 'subscribe',
          version: CONSENT_TEXT_VERSIONS.subscribe,
          targetId: null,
          channel: '会诊申请信息 · 订阅进度通知',
        })
        assert.equal(recorded.status, 200, recorded.error ?? '')
        assert.equal(recorded.data.item.state, 'given')
      },
    },
  }
  for (const operation of asking) {
    assert.ok(
      drivers[operation],
      `${operation} asks for a consent: drive it here and record its row`,
    )
  }
  for (const [operation, driver] of Object.entries(drivers)) {
    const before = await Promise.all(driver.purposes.map((p) => rowsOf(world, p)))
    await driver.run()
    const after = await Promise.all(driver.purposes.map((p) => rowsOf(world, p)))
    driver.purposes.forEach((purpose, index) => {
      assert.equal(
        after[index]!.length,
        before[index]!.length + 1,
        `${operation} writes one ${purpose} row`,
      )
    })
  }

  // A first WeChat login makes an account: it agreed to the policies on the login page.
  const session = await loginWithWechat(
    world.app.db,
    { exchangeCode: async () => ({ openid: `openid-${Date.now()}` }) },
    { code: 'wx-code', now: world.clock.now() },
  )
  const wechatRows = await world.app.db
    .selectFrom('consents')
    .select(['kind', 'channel'])
    .where('user_id', '=', session.user.id)
    .orderBy('kind')
    .execute()
  assert.deepEqual(wechatRows, [
    { kind: 'privacy', channel: '登录 · 微信登录' },
    { kind: 'user', channel: '登录 · 微信登录' },
  ])
})

test('隐私与授权: withdrawing a consultation’s sharing ends its grant at once; the expert is answered 授权已失效', async () => {
  const { world, asker, doctor, examId, consultationId, grantId } = await aiWorld()
  const seen = await world.call(doctor, 'GET', `/main/shared/${grantId}`)
  assert.equal(seen.status, 200, seen.error ?? '')

  const list = await world.call(asker, 'GET', '/main/consents')
  assert.equal(list.status, 200, list.error ?? '')
  const sharing = list.data.groups.find((g: { purpose: string }) => g.purpose === 'consult-share')
  assert.equal(sharing.items.length, 1)
  assert.equal(sharing.items[0].targetId, consultationId)
  assert.equal(sharing.items[0].state, 'given')
  assert.equal(sharing.items[0].canWithdraw, true)
  const sharedExam = await world.app.db
    .selectFrom('exams')
    .select(['title', 'description', 'modalities'])
    .where('id', '=', examId)
    .executeTakeFirstOrThrow()
  assert.equal(
    sharing.items[0].title,
    `向 李专家 共享 ${examTitle(sharedExam)}`,
    'the record named as she knows it',
  )
  assert.equal(sharing.items[0].subject, '本人')
  const privacy = list.data.groups.find((g: { purpose: string }) => g.purpose === 'privacy')
  assert.equal(privacy.withdrawable, false)

  // Someone else cannot withdraw it, nor learn that it exists.
  const stranger = await patient(world, '赵路人')
  const foreign = await world.call(stranger, 'POST', '/main/consents/withdraw', {
    purpose: 'consult-share',
    targetId: consultationId,
  })
  assert.equal(foreign.status, 404)
  assert.equal(foreign.error, '未找到该授权')
  // The expert (who holds the grant) cannot either.
  const byExpert = await world.call(doctor, 'POST', '/main/consents/withdraw', {
    purpose: 'consult-share',
    targetId: consultationId,
  })
  assert.equal(byExpert.status, 404)

  const answers = await Promise.all(
    Array.from({ length: 10 }, () =>
      world.call(asker, 'POST', '/main/consents/withdraw', {
        purpose: 'consult-share',
        targetId: consultationId,
      }),
    ),
  )
  const statuses = answers.map((answer) => answer.status).sort()
  assert.deepEqual(
    statuses,
    [200, ...Array<number>(9).fill(409)],
    'ten withdrawals at once: one is done, the others are told',
  )
  const withdrawnRows = await world.app.db
    .selectFrom('consents')
    .select('id')
    .where('kind', '=', 'consult-share')
    .where('target_id', '=', consultationId)
    .where('action', '=', 'withdrawn')
    .execute()
  assert.equal(withdrawnRows.length, 1, 'one withdrawal row')
  const done = answers.find((answer) => answer.status === 200)!
  assert.equal(done.data.item.state, 'withdrawn')
  assert.equal(done.data.item.history.length, 2)
  assert.equal(done.data.item.history[0].channel, '隐私与授权 · 撤回')
  assert.match(done.data.kept, /会诊意见/)

  const after = await world.call(doctor, 'GET', `/main/shared/${grantId}`)
  assert.equal(after.status, 403)
  assert.equal(after.error, '授权已失效')
  const exam = await world.call(doctor, 'GET', `/main/shared/${grantId}/exams/${examId}`)
  assert.equal(exam.status, 403)

  // Policies are not withdrawn here: the answer says where.
  const policy = await world.call(asker, 'POST', '/main/consents/withdraw', {
    purpose: 'privacy',
    targetId: null,
  })
  assert.equal(policy.status, 400)
  assert.match(policy.error ?? '', /注销账号/)
})

test('a grant revoked in 授权记录 is a withdrawn consent; an AI analysis withdrawn leaves no result for the expert', async () => {
  const { world, asker, doctor, examId, consultationId } = await aiWorld()
  const revoked = await world.call(asker, 'POST', '/main/grants', {
    audience: 'account',
    mobile: doctor.mobile,
    duration: '24h',
    examIds: [examId],
    reportIds: [],
  })
  assert.equal(revoked.status, 200, revoked.error ?? '')
  const grantId = revoked.data.grant.id as string
  const cancel = await world.call(asker, 'DELETE', `/main/grants/${grantId}`)
  assert.equal(cancel.status, 200, cancel.error ?? '')
  const again = await world.call(asker, 'DELETE', `/main/grants/${grantId}`)
  assert.equal(again.status, 200, 'revoking twice stays idempotent')

  const applied = await world.call(asker, 'POST', `/main/exams/${examId}/ai-analysis`)
  assert.equal(applied.status, 200, applied.error ?? '')
  const analysisId = applied.data.id as string
  const withdrawn = await world.call(asker, 'POST', '/main/consents/withdraw', {
    purpose: 'ai-analysis',
    targetId: analysisId,
  })
  assert.equal(withdrawn.status, 200, withdrawn.error ?? '')
  // Whether the job had run or not, its result is gone and the job writes nothing after.
  await world.drainJobs()
  const row = await world.app.db
    .selectFrom('ai_analyses')
    .select(['state', 'result_json', 'message'])
    .where('id', '=', analysisId)
    .executeTakeFirstOrThrow()
  assert.equal(row.state, 'failed')
  assert.equal(row.result_json, null)
  const drafts = await world.call(
    doctor,
    'GET',
    `/main/expert/consultations/${consultationId}/ai-drafts`,
  )
  assert.equal(drafts.status, 200, drafts.error ?? '')
  assert.deepEqual(drafts.data, [], 'no draft reaches the expert')

  const list = await world.call(asker, 'GET', '/main/consents')
  const grants = list.data.groups.find((g: { purpose: string }) => g.purpose === 'grant')
  const item = grants.items.find((it: { targetId: string }) => it.targetId === grantId)
  assert.equal(item.state, 'withdrawn')
  assert.deepEqual(
    item.history.map((h: { action: string; channel: string }) => [h.action, h.channel]),
    [
      ['withdrawn', '授权记录 · 撤销授权'],
      ['given', '授权分享 · 确认授权'],
    ],
  )
})

test('subscribe messages withdrawn: none is sent to that person', async () => {
  const sent: string[] = []
  const { world, asker } = await aiWorld()
  world.app.providers.subscribe = {
    send: async (notice) => {
      sent.push(notice.userId)
      return { sent: true }
    },
  }
  // Wrapped again as the app does at start, over the recording adapter.
  const { honourSubscribeConsent } = await import('../../src/domain/consents')
  const subscribe = honourSubscribeConsent(world.app.db, world.app.providers.subscribe)
  const notice = { userId: asker.user.id, template: 'consult-update' as const, data: {} }
  assert.deepEqual(await subscribe.send(notice), { sent: true })
  const recorded = await world.call(asker, 'POST', '/main/consents', {
    purpose: 'subscribe',
    version: CONSENT_TEXT_VERSIONS.subscribe,
    targetId: null,
    channel: '会诊申请信息 · 订阅进度通知',
  })
  assert.equal(recorded.status, 200, recorded.error ?? '')
  const outdated = await world.call(asker, 'POST', '/main/consents', {
    purpose: 'privacy',
    version: 'v0-old',
    targetId: null,
    channel: '启动 · 同意',
  })
  assert.equal(outdated.status, 400)
  assert.equal(outdated.error, '条款已更新，请重新阅读后同意')
  const off = await world.call(asker, 'POST', '/main/consents/withdraw', {
    purpose: 'subscribe',
    targetId: null,
  })
  assert.equal(off.status, 200, off.error ?? '')
  assert.deepEqual(await subscribe.send(notice), { sent: false, reason: '用户已撤回订阅消息授权' })
  assert.deepEqual(sent, [asker.user.id], 'sent once, before the withdrawal')
})

test('亲情卡: adding a member is a consent both sides see; 解除 records its end; not withdrawn from 隐私与授权', async () => {
  const { world, asker } = await aiWorld()
  const added = await world.call(asker, 'POST', '/main/family/children', {
    name: '王小宝',
    idNumber: validIdNumber('20200101', 78),
    guardianConfirmed: true,
  })
  assert.equal(added.status, 200, added.error ?? '')
  const linkId = added.data.id as string
  const list = await world.call(asker, 'GET', '/main/consents')
  const family = list.data.groups.find((g: { purpose: string }) => g.purpose === 'family')
  assert.equal(family.items.length, 1)
  assert.equal(family.items[0].targetId, linkId)
  assert.equal(family.items[0].title, '监护人同意代管儿童的健康记录')
  assert.match(family.items[0].subject, /^王\*/)
  assert.equal(family.items[0].canWithdraw, false)
  const here = await world.call(asker, 'POST', '/main/consents/withdraw', {
    purpose: 'family',
    targetId: family.items[0].targetId,
  })
  assert.equal(here.status, 400)
  assert.match(here.error ?? '', /亲情卡/)
  const ended = await world.call(
    asker,
    'DELETE',
    `/main/family/members/${family.items[0].targetId}`,
  )
  assert.equal(ended.status, 200, ended.error ?? '')
  const after = await world.call(asker, 'GET', '/main/consents')
  const item = after.data.groups.find((g: { purpose: string }) => g.purpose === 'family').items[0]
  assert.equal(item.state, 'withdrawn')
  assert.equal(item.history[0].channel, '亲情卡 · 解除')
})
