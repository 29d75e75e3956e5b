import assert from 'node:assert/strict'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, settle, signIn, view, type Phone } from './support'

/**
 * Issue 10's feedback loop in two phones: the demo patient sends 意见反馈 with a picture; the demo
 * operator (H5 运营后台) sees it with the picture, replies and adopts it; the patient's Mine tab
 * shows the unread badge, the message opens from 我的消息, 意见反馈 shows the reply, and 应用中心
 * the 50 points. A patient who opens 运营后台 is told it is for operators only.
 */

const PHOTO = path.resolve(__dirname, '../server/src/domain/content/demo/media/talk-ct.jpg')

describe('feedback answered by an operator', () => {
  let patient: Phone
  let operator: Phone
  const text = `报告页字体能否再大一些？（${Date.now() % 100000}）`
  before(async () => {
    patient = await openPhone()
    operator = await openPhone()
    await signIn(patient, { mobile: '13800000001', password: 'demo1234' })
    await signIn(operator, { mobile: '13700000003', password: 'demo1234' })
  })
  after(async () => {
    await patient.close()
    await operator.close()
  })

  it('the patient sends feedback with a picture', async () => {
    const { page } = patient
    await page.goto(`${BASE_URL}/pages/feedback/feedback`)
    await view(page).getByText('产品建议').click()
    await view(page).locator('textarea').first().fill(text)
    // Taro's H5 chooseImage first asks 拍摄 or 从相册选择, as the mini-program does.
    await view(page).getByLabel('添加图片').click()
    const [chooser] = await Promise.all([
      page.waitForEvent('filechooser'),
      page.getByText('从相册选择').click(),
    ])
    await chooser.setFiles(PHOTO)
    await view(page).locator('.feedback__thumb').first().waitFor()
    await page.waitForFunction(() => !document.body.textContent?.includes('上传中'))
    // A NutUI button takes the tap itself, not its label.
    await view(page).locator('.nut-button', { hasText: '提交反馈' }).click()
    await view(page).getByText(text).waitFor()
    await screenshot(page, 'operator-feedback-sent')
  })

  it('a patient is told 运营后台 is for operators only, without 重试 or a console error', async () => {
    const { page, errors } = patient
    const before = errors.length
    await page.goto(`${BASE_URL}/pages/operator/index`)
    await view(page).getByText('仅运营人员可以使用此功能').waitFor()
    await view(page).locator('.nut-button', { hasText: '返回' }).waitFor()
    assert.equal(await view(page).getByText('重试').count(), 0)
    // No refused operator call: the browser logs every 403 as a console error.
    assert.deepEqual(errors.slice(before), [])
    await screenshot(page, 'operator-refused')
  })

  it('the operator sees it with its picture, replies and adopts it', async () => {
    const { page } = operator
    await page.goto(`${BASE_URL}/pages/operator/index`)
    await view(page).getByText('新建文章').waitFor()
    await screenshot(page, 'operator-articles')
    await view(page).locator('[role=tab]', { hasText: '反馈' }).click()
    const card = view(page).locator('.operator__row', { hasText: text })
    await card.waitFor()
    // The picture is fetched with the operator's token (feedback images are never public).
    await card.locator('img.operator__thumb, .operator__thumb img').first().waitFor()
    await card.locator('textarea').fill('感谢建议！下个版本报告页支持双指放大文字。')
    await card.getByText('采纳（奖励 50 积分）').click()
    await card.locator('.nut-button', { hasText: /^回复$/ }).click()
    await card.getByText(/已回复：感谢建议/).waitFor()
    await screenshot(page, 'operator-feedback-replied')
    await view(page).locator('[role=tab]', { hasText: '操作记录' }).click()
    await view(page).getByText('回复反馈：采纳').first().waitFor()
    await screenshot(page, 'operator-audit-log')
  })

  it('the operator writes an article: what the sanitiser removed is shown; published, it is found', async () => {
    const { page } = operator
    const title = `冬季颈椎保养小贴士 ${Date.now() % 100000}`
    await page.goto(`${BASE_URL}/pages/operator/article`)
    await view(page).locator('input[placeholder="标题"]').fill(title)
    await view(page)
      .locator('textarea[placeholder^="正文"]')
      .fill('<p>低头看手机久了，颈椎会累，每隔半小时抬头活动一下。</p><script>alert(1)</script>')
    await view(page).locator('.nut-button', { hasText: '保存草稿' }).click()
    await view(page)
      .getByText(/上次保存时已移除：.*script/)
      .waitFor()
    await view(page).getByText('草稿', { exact: true }).waitFor()
    await screenshot(page, 'operator-article-editor')
    await view(page).locator('.nut-button', { hasText: '保存并发布' }).click()
    await view(page).getByText('已发布', { exact: true }).waitFor()
    const found = (await (
      await fetch(`${BASE_URL}/main/search?q=${encodeURIComponent('颈椎保养小贴士')}`)
    ).json()) as { data: { hits: { title: { 0: string }[] }[] } }
    assert.ok(JSON.stringify(found.data.hits).includes('颈椎保养小贴士'), 'readers find it')
  })

  it('the patient opens the message from the badge and sees the reply and the points', async () => {
    const { page } = patient
    await page.goto(`${BASE_URL}/pages/main/main`)
    // The Mine tab's badge: the unread message.
    await page.locator('.weui-tabbar .weui-badge').first().waitFor()
    await screenshot(page, 'operator-badge')
    await page.locator('.weui-tabbar').getByText('我的').click()
    await view(page).locator('.nut-cell', { hasText: '我的消息' }).click()
    await view(page).locator('.messages__main', { hasText: '您的反馈已被采纳' }).first().click()
    await view(page)
      .getByText(/下个版本报告页支持双指放大文字/)
      .first()
      .waitFor()
    await screenshot(page, 'operator-message')
    await page.goto(`${BASE_URL}/pages/feedback/feedback`)
    const mine = view(page).locator('.feedback__item', { hasText: text })
    await mine.getByText(/下个版本报告页支持双指放大文字/).waitFor()
    await page.goto(`${BASE_URL}/pages/integration/integration`)
    await view(page).getByText('反馈被采纳').first().waitFor()
    await settle(page)
    const body = await view(page).innerText()
    assert.match(body, /\+50/)
    assert.deepEqual(
      // The browser's own line for the refused 运营后台 call names no address, only the 403.
      patient.errors.filter(
        (line) => !line.includes('/main/operator/') && !line.includes('(Forbidden)'),
      ),
      [],
      'no console errors beyond the refused operator call',
    )
  })
})
