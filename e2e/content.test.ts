import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * Issue 10's health content in a phone-sized Chromium on the demo seed: an article read (its count
 * rises once however often it is opened that day), 赞 and 收藏, found again from 搜索 by a part of
 * a Chinese word, a video watched and resumed at the same second, and 我的收藏.
 */

const ARTICLE = '磨玻璃肺结节是怎么回事'

async function readCount(phone: Phone): Promise<number> {
  const text = await view(phone.page).locator('.article__meta').innerText()
  return Number(/阅读 (\d+)/.exec(text)?.[1] ?? NaN)
}

describe('health content of the demo', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone()
    await signIn(phone, { mobile: '13800000001', password: 'demo1234' })
  })
  after(async () => {
    await phone.close()
  })

  it('健康资讯 lists the articles by type; an article counts its read once a day', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/infoList/infoList`)
    await view(page).locator('.article-card').first().waitFor()
    await view(page).locator('[role=tab]', { hasText: '疾病科普' }).click()
    await view(page).getByText(ARTICLE).waitFor()
    await screenshot(page, 'content-list')
    await view(page).getByText(ARTICLE).click()
    await view(page).locator('.article__title', { hasText: ARTICLE }).waitFor()
    await view(page).getByText('它可能是什么').waitFor()
    // The count shown rises by one when the read is counted.
    await page.waitForFunction(() =>
      /阅读 1\b/.test(document.querySelector('.article__meta')?.textContent ?? ''),
    )
    const first = await readCount(phone)
    await screenshot(page, 'content-article')
    await page.reload()
    await view(page).locator('.article__title', { hasText: ARTICLE }).waitFor()
    await page.waitForTimeout(800)
    assert.equal(await readCount(phone), first, 'a second open the same day is not a second read')
  })

  it('赞 and 收藏 stick, and the article is in 我的收藏', async () => {
    const { page } = phone
    // A rerun on the same database finds it liked already: start from not liked.
    const liked = view(page).locator('.article__action', { hasText: /^已赞 \d+$/ })
    if ((await liked.count()) > 0) await liked.click()
    const favourited = view(page).locator('.article__action', { hasText: /^已收藏 \d+$/ })
    if ((await favourited.count()) > 0) await favourited.click()
    await view(page)
      .locator('.article__action', { hasText: /^赞 \d+$/ })
      .click()
    await view(page).locator('.article__action', { hasText: '已赞 1' }).waitFor()
    await view(page)
      .locator('.article__action', { hasText: /^收藏 \d+$/ })
      .click()
    await view(page).locator('.article__action', { hasText: '已收藏 1' }).waitFor()
    await page.reload()
    await view(page).locator('.article__action', { hasText: '已赞 1' }).waitFor()
    await view(page).locator('.article__action', { hasText: '已收藏 1' }).waitFor()
    await page.goto(`${BASE_URL}/pages/collectList/collectList`)
    await view(page).getByText(ARTICLE).waitFor()
    await screenshot(page, 'content-favourites')
  })

  it('搜索 finds the article by 肺结节, a part of 磨玻璃肺结节, highlighted', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/search/search`)
    const input = view(page).locator('.search__bar input')
    await input.fill('肺结节')
    await view(page).locator('.search__go').click()
    await view(page).locator('.search__hit').first().waitFor()
    await view(page).locator('.search__hit-title', { hasText: ARTICLE }).first().waitFor()
    const marks = await view(page).locator('.search__mark').allInnerTexts()
    assert.ok(marks.length > 0 && marks.every((mark) => mark === '肺结节'))
    await screenshot(page, 'content-search')
    await view(page).locator('.search__hit-title', { hasText: ARTICLE }).first().click()
    await view(page).locator('.article__title', { hasText: ARTICLE }).waitFor()
  })

  it('a video resumes at the second the viewer left it', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/videoShow/videoShow`)
    await view(page).getByText('体检发现肺结节怎么办（演示）').click()
    const video = view(page).locator('.video__player video')
    await video.waitFor()
    // Play to about the third second, then pause (what leaving or pausing saves). No named
    // functions inside evaluate: tsx would wrap them in a helper the page does not have.
    await video.evaluate((element: HTMLVideoElement) => {
      element.muted = true
      return element.play()
    })
    await page.waitForFunction(
      () => (document.querySelector('.video__player video') as HTMLVideoElement).currentTime >= 3,
      undefined,
      { timeout: 15_000 },
    )
    await video.evaluate((element: HTMLVideoElement) => element.pause())
    await screenshot(page, 'content-video')
    await page.waitForTimeout(500)
    await page.reload()
    await view(page)
      .getByText(/上次看到 0:03/)
      .waitFor()
    await page.waitForFunction(
      () => (document.querySelector('.video__player video') as HTMLVideoElement).readyState >= 1,
    )
    await page.waitForTimeout(300)
    const resumed = await view(page)
      .locator('.video__player video')
      .evaluate((element: HTMLVideoElement) => element.currentTime)
    assert.ok(resumed >= 3 && resumed < 4, `resumed at ${resumed}`)
  })
})
