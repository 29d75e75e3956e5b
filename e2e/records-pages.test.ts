import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * The image pages with the demo seed's records: 我的影像 → 影像详情, whose series thumbnail is
 * fetched with the bearer token (an <img> cannot send it) and shown from an object URL; 院内查询
 * with its filters; 选择地区或医院. (records.test.ts follows a hospital's push to the report.)
 */

describe('image pages of the demo patient', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone()
    await signIn(phone, { mobile: '13800000001', password: 'demo1234' })
  })
  after(async () => {
    await phone.close()
  })

  it('影像详情 shows the study and its series thumbnail, fetched with the token', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    await view(page).getByText('头颅 MR 平扫（演示）').click()
    await view(page).locator('.exam-detail__title', { hasText: '头颅 MR 平扫（演示）' }).waitFor()
    await view(page).getByText('MR20261102001').waitFor()
    await page.waitForFunction(
      () =>
        Array.from(document.querySelectorAll<HTMLImageElement>('.taro_page img')).some(
          (img) => img.complete && img.naturalWidth > 0 && img.src.startsWith('blob:'),
        ),
      undefined,
      { timeout: 15_000 },
    )
    await screenshot(page, 'records-pages-exam-detail')
  })

  it('院内查询 filters one hospital’s exams by type', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    await view(page)
      .getByText(/按日期、类型查询|查看全部/)
      .first()
      .click()
    await view(page).locator('.exam-card').first().waitFor()
    await view(page).locator('.filter-chips__chip', { hasText: '磁共振' }).click()
    // The unfiltered list already shows the MR: the filter's answer is when the CT has gone.
    await view(page).getByText('头颅 CT 平扫（演示）').first().waitFor({ state: 'detached' })
    await view(page).getByText('头颅 MR 平扫（演示）').waitFor()
    assert.equal(await view(page).getByText('头颅 CT 平扫（演示）').count(), 0)
    await screenshot(page, 'records-pages-list')
  })

  it('选择地区或医院 lists the hospitals with the AI mark', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/personalImage/imageHospital`)
    await view(page).locator('.hospital-finder__item').first().waitFor()
    await view(page).getByText('AI报告').first().waitFor()
    await screenshot(page, 'records-pages-hospitals')
  })

  it('logged no console errors', () => {
    assert.deepEqual(phone.errors, [])
  })
})
