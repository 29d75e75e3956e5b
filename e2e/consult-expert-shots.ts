/**
 * Screenshots (390×844) of the pages issue 21's expert half builds, against a running demo server:
 * 患者咨询 (the demo expert), 消息详情 as the expert and as the patient, 咨询消息, and 运营后台 →
 * 咨询订单. `E2E_BASE_URL=http://127.0.0.1:8462 npx tsx e2e/consult-expert-shots.ts`; pictures go to
 * e2e/artifacts/consult-*.png. Not a test: it is for looking at the pages.
 */
import { api } from './experts-support'
import { BASE_URL, openPhone, screenshot, settle, signIn } from './support'

const VIEWPORT = { width: 390, height: 844 }
const EXPERT = { mobile: '13900000002', password: 'demo1234' }
const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const OPERATOR = { mobile: '13700000003', password: 'demo1234' }

interface Card {
  id: string
  state: string
}

async function shoot(
  account: typeof EXPERT,
  pages: { url: string; name: string; full?: boolean }[],
) {
  const phone = await openPhone(VIEWPORT)
  try {
    const token = await signIn(phone, account)
    for (const page of pages) {
      await phone.page.goto(`${BASE_URL}${page.url}`)
      await phone.page.waitForTimeout(2500)
      await settle(phone.page)
      await screenshot(phone.page, page.name)
      if (page.full) {
        await phone.page.screenshot({
          path: `e2e/artifacts/${page.name}-full.png`,
          fullPage: true,
        })
      }
    }
    console.log(account.mobile, 'errors:', phone.errors.slice(0, 8))
    return token
  } finally {
    await phone.close()
  }
}

async function main() {
  const expertToken = (
    await api<{ access_token: string }>('/sso/oauth2/token', {
      body: { grant_type: 'password', username: EXPERT.mobile, password: EXPERT.password },
    })
  ).access_token
  const expertCards: Card[] = []
  for (const tab of ['waiting', 'active', 'done']) {
    const page = await api<{ items: Card[] }>(`/main/expert/consultations?tab=${tab}`, {
      token: expertToken,
    })
    expertCards.push(...page.items)
  }
  console.log(
    'expert consultations',
    expertCards.map((card) => `${card.id}:${card.state}`),
  )
  const answered =
    expertCards.find((card) => card.state === 'answered' || card.state === 'completed') ??
    expertCards[0]
  const active = expertCards.find((card) => card.state === 'in-progress') ?? answered
  await shoot(EXPERT, [
    { url: '/pages/docQuestList/docQuestList', name: 'consult-docQuestList' },
    ...(active
      ? [
          {
            url: `/pages/myMessage/detail?consultationId=${active.id}`,
            name: 'consult-detail-expert',
            full: true,
          },
        ]
      : []),
    { url: '/pages/myMessage/myMessage', name: 'consult-myMessage-expert' },
  ])
  await shoot(PATIENT, [
    { url: '/pages/myMessage/myMessage', name: 'consult-myMessage-patient' },
    ...(answered
      ? [
          {
            url: `/pages/myMessage/detail?consultationId=${answered.id}`,
            name: 'consult-detail-patient',
            full: true,
          },
        ]
      : []),
  ])
  await shoot(OPERATOR, [
    { url: '/pages/operator/index?tab=consultations', name: 'consult-operator', full: true },
  ])
}

void main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
