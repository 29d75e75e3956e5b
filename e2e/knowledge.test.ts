import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, settle, signIn, view, type Phone } from './support'

/**
 * 通俗解释 (issue 23) as a patient meets it: from home to 个人报告, into the demo chest CT report,
 * where 实性结节 and the other terms are underlined; a tap explains one, with what usually follows,
 * its guideline and the caveat. On the phone size of the pictures (390×844).
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }

describe('plain-language explanations in 报告详情', () => {
  let phone: Phone

  before(async () => {
    phone = await openPhone({ width: 390, height: 844 })
    const token = await signIn(phone, PATIENT)
    // The demo's own records are pushed just after the server starts listening.
    for (let i = 0; i < 120; i++) {
      const response = await fetch(`${BASE_URL}/main/reports`, {
        headers: { authorization: `Bearer ${token}` },
      })
      const body = (await response.json()) as { data: { items: { title: string | null }[] } }
      if (body.data.items.some((item) => item.title?.includes('胸部 CT'))) break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  })
  after(async () => {
    await phone.close()
  })

  it('home → 个人报告 → the chest CT: terms underlined; a tap explains 实性结节', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/`)
    await view(page).locator('.home__entry', { hasText: '个人报告' }).click()
    await page.waitForURL(/\/pages\/personalReport\/index(\?|$)/)
    await view(page).locator('.report-card', { hasText: '胸部 CT' }).first().click()
    await page.waitForURL(/\/pages\/personalReport\/detail/)

    const term = view(page)
      .locator('.explained-text__term', { hasText: /^实性结节$/ })
      .first()
    await term.waitFor()
    const underlined = await view(page).locator('.explained-text__term').allInnerTexts()
    for (const word of ['实性结节', '分叶', '毛刺', '磨玻璃影', '肿大淋巴结'])
      assert.ok(underlined.includes(word), `${word} is not underlined: ${underlined.join('、')}`)
    const style = await term.evaluate((element) => {
      const css = getComputedStyle(element)
      return { line: css.textDecorationLine, style: css.textDecorationStyle, color: css.color }
    })
    assert.equal(style.line, 'underline')
    assert.equal(style.style, 'dotted')
    await screenshot(page, 'knowledge-report-terms')

    await settle(page)
    await term.click()
    const sheet = page.locator('.term-sheet')
    await sheet.getByText('解释仅供理解报告，具体请以医生意见为准').waitFor()
    const text = await sheet.innerText()
    assert.match(text, /实性结节是 CT 上密度较高/)
    assert.match(text, /通常怎么随访/)
    assert.match(text, /来源：Fleischner Society 2017/)
    await screenshot(page, 'knowledge-term-explained')

    await sheet.locator('.term-sheet__button').click()
    await sheet.waitFor({ state: 'hidden' })
    assert.deepEqual(
      phone.errors.filter((error) => error.includes('/knowledge/')),
      [],
      'the analysis answered without an error',
    )
  })
})
