import assert from 'node:assert/strict'
import { writeFileSync } from 'node:fs'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import {
  ARTIFACTS,
  BASE_URL,
  openPhone,
  screenshot,
  settle,
  signIn,
  view,
  type Phone,
} from './support'

/**
 * 院内报告 end to end: the first demo hospital prints the code of its 放射科 (with its demo API key),
 * and the demo patient, starting at home, reads it with 扫一扫 (from a photo, as a browser without
 * camera access does) and sees her exams at that hospital with where each report stands.
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const HOSPITAL = { id: 'demo-hospital-01', name: '示例市第一人民医院', key: 'demo-hospital-key' }
const ROOM = { id: 'demo-hospital-01-dept-01', name: '放射科' }

interface Envelope<T> {
  data: T
}
interface HospitalReports {
  counts: Record<string, number>
  items: { stateLabel: string; exam: { title: string } }[]
}

describe('院内报告', () => {
  let phone: Phone
  let token: string

  before(async () => {
    phone = await openPhone({ width: 390, height: 844 })
    token = await signIn(phone, PATIENT)
    // The demo's own records are pushed just after the server starts listening.
    for (let i = 0; i < 120; i++) {
      const response = await fetch(
        `${BASE_URL}/scan/hospital-reports?hospitalId=${HOSPITAL.id}&roomId=${ROOM.id}`,
        { headers: { authorization: `Bearer ${token}` } },
      )
      assert.equal(response.status, 200)
      const { data } = (await response.json()) as Envelope<HospitalReports>
      if (data.counts.total >= 2) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  })

  after(async () => {
    await phone.close()
  })

  it("shows the demo patient's exams at the first demo hospital after scanning its room code", async () => {
    const issued = await fetch(`${BASE_URL}/scan/room-codes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${HOSPITAL.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ roomId: ROOM.id }),
    })
    assert.equal(issued.status, 200, await issued.clone().text())
    const code = ((await issued.json()) as Envelope<{ url: string; qrImage: string }>).data
    assert.ok(
      code.url.endsWith(`/pages/report/reportIn?hospitalId=${HOSPITAL.id}&roomId=${ROOM.id}`),
    )
    const photo = path.join(ARTIFACTS, 'report-in-room-code.png')
    writeFileSync(photo, Buffer.from(code.qrImage.split(',')[1]!, 'base64'))

    const expected = (await (
      await fetch(`${BASE_URL}/scan/hospital-reports?hospitalId=${HOSPITAL.id}&roomId=${ROOM.id}`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as Envelope<HospitalReports>
    assert.ok(expected.data.items.length >= 2, 'the demo patient has exams at the first hospital')

    const { page } = phone
    await page.goto(`${BASE_URL}/pages/main/main`)
    await view(page).getByText('扫一扫').first().waitFor()
    await settle(page)
    await view(page).getByText('扫一扫').first().click()
    await page.waitForURL(/\/pages\/scanPage\/scanPage/)
    await view(page).getByText('从相册选择').waitFor()
    await settle(page)
    const chooser = page.waitForEvent('filechooser')
    await view(page).locator('.nut-button', { hasText: '从相册选择' }).click()
    await (await chooser).setFiles(photo)
    await page.waitForURL(/\/pages\/report\/reportIn\?hospitalId=demo-hospital-01&roomId=/)

    await view(page).getByText(HOSPITAL.name).first().waitFor()
    await view(page).getByText(`扫码位置：${ROOM.name}`).waitFor()
    await view(page).getByText(`共 ${expected.data.items.length} 项检查`).waitFor()
    for (const item of expected.data.items) {
      await view(page).getByText(item.exam.title).first().waitFor()
    }
    // Her brain MR's report is long out (可取片); the head CT has no report yet (已检查).
    const labels = expected.data.items.map((item) => item.stateLabel)
    assert.ok(labels.includes('可取片'), labels.join())
    assert.ok(labels.includes('已检查'), labels.join())
    await view(page)
      .getByText(/^可取片（\d+）$/)
      .waitFor()
    await view(page)
      .getByText(/^已检查（\d+）$/)
      .waitFor()
    await screenshot(page, 'report-in-list')

    // Each exam opens 报告详情 (or 影像详情).
    await view(page).locator('.nut-button', { hasText: '报告详情' }).first().click()
    await page.waitForURL(/\/pages\/personalReport\/detail\?id=/)
    // Its detail, or its privacy gate: e2e/records.test.ts may have made the head CT's report
    // private before this file runs (the demo accounts are shared).
    await view(page).locator('.report-sections__row, .unlock-panel').first().waitFor()
    await screenshot(page, 'report-in-report-detail')
  })

  it('with nothing at a hospital yet, it says so', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/report/reportIn?hospitalId=demo-hospital-05`)
    await view(page).getByText('暂无您在该医院的检查记录', { exact: false }).waitFor()
    await screenshot(page, 'report-in-empty')
  })

  it('logged no console errors', () => {
    assert.deepEqual(phone.errors, [])
  })
})
