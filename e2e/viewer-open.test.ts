import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * Opening the viewer (issue 8, tap → first pixels): from 影像详情 the viewer's first picture is the
 * very thumbnail that page shows of the tapped series (its object URL, handed over, no second
 * download), and the raw frames then replace it on the canvas. A cold open (a link, a reload: no
 * handoff) still opens and records viewer-first-pixels from the page's start.
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const CT_TITLE = '胸部 CT 平扫（演示）'

interface Envelope<T> {
  data: T
}

async function api<T>(token: string, url: string): Promise<T> {
  const response = await fetch(`${BASE_URL}${url}`, {
    headers: { authorization: `Bearer ${token}` },
  })
  assert.ok(response.ok, `${url}: ${response.status}`)
  return ((await response.json()) as Envelope<T>).data
}

/** Mean grey of the image canvas: > 0 once a raw frame is drawn on it. */
function canvasMean(page: Page): Promise<number> {
  return page.evaluate(() => {
    const host = document.getElementById('image-viewer-canvas')
    const canvas = host instanceof HTMLCanvasElement ? host : host?.querySelector('canvas')
    if (!canvas || canvas.width === 0) return 0
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
    let sum = 0
    for (let i = 0; i < data.length; i += 4) sum += data[i]!
    return sum / (data.length / 4)
  })
}

describe('opening the viewer', () => {
  let phone: Phone
  let page: Page
  let examId = ''

  before(async () => {
    phone = await openPhone()
    page = phone.page
    await page.setViewportSize({ width: 390, height: 844 })
    const token = await signIn(phone, PATIENT)
    for (let i = 0; i < 240 && !examId; i++) {
      const groups = await api<{ latest: { id: string; title: string; status: string }[] }[]>(
        token,
        '/main/images',
      )
      const ct = groups.flatMap((g) => g.latest).find((exam) => exam.title === CT_TITLE)
      if (ct?.status === 'ready') examId = ct.id
      else await new Promise((resolve) => setTimeout(resolve, 500))
    }
    assert.ok(examId, 'the demo CT is stored')
  })
  after(async () => {
    await phone.close()
  })

  it('from 影像详情: paints the tapped series’ thumbnail first, then the raw frames replace it', async () => {
    await page.goto(`${BASE_URL}/pages/personalImage/detail?id=${encodeURIComponent(examId)}`)
    const tile = view(page).locator('.series-grid__tile').first()
    const thumbnail = tile.locator('img[src^="blob:"]')
    await thumbnail.waitFor({ timeout: 30_000 })
    const thumbSrc = await thumbnail.getAttribute('src')
    assert.ok(thumbSrc)
    // Every image the viewer page shows, in order, and when the first pixels were recorded.
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { viewerImages: string[] }).viewerImages = seen
      new MutationObserver(() => {
        // The viewer is pushed as a new page: the last one in the DOM (影像详情 stays, hidden).
        const pages = document.querySelectorAll('.taro_page')
        if (pages.length < 2) return
        for (const img of pages[pages.length - 1]!.querySelectorAll('img')) {
          if (img.src && seen[seen.length - 1] !== img.src) seen.push(img.src)
        }
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['src'],
      })
    })
    const requests: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/thumbnail')) requests.push(request.url())
    })
    await tile.click()
    await page.waitForFunction(
      () => performance.getEntriesByName('viewer-render').length > 0,
      undefined,
      {
        timeout: 30_000,
      },
    )
    const seen = await page.evaluate(
      () => (window as unknown as { viewerImages: string[] }).viewerImages,
    )
    assert.equal(
      seen[0],
      thumbSrc,
      `the first picture is the tile's own thumbnail (${seen.join(', ')})`,
    )
    assert.deepEqual(requests, [], 'the thumbnail was not downloaded again')
    const [first] = await page.evaluate(() =>
      performance.getEntriesByName('viewer-first-pixels').map((e) => e.startTime + e.duration),
    )
    const [render] = await page.evaluate(() =>
      performance.getEntriesByName('viewer-render').map((e) => e.startTime),
    )
    assert.ok(
      first !== undefined && render !== undefined && first <= render,
      'first pixels before the raw frame',
    )
    assert.equal(
      await page.evaluate(() => performance.getEntriesByName('viewer-first-pixels').length),
      1,
      'recorded once',
    )
    // The raw frame replaced the previews: no preview image is left on the stage.
    await page.waitForFunction(
      () => !document.querySelector('.taro_page:not([style*="none"]) .image-viewer__preview'),
    )
    assert.ok((await canvasMean(page)) > 5, 'the canvas shows the raw frame')
    assert.match(
      await view(page).getByTestId('viewer-overlay').innerText(),
      /窗宽\s*1500\s*窗位\s*-600/,
    )
    await screenshot(page, 'viewer-open-handoff')
  })

  it('a cold open (no handoff) opens and records first pixels from the page’s start', async () => {
    await page.goto(`${BASE_URL}/pages/personalImage/viewer?examId=${encodeURIComponent(examId)}`)
    await page.waitForFunction(
      () => performance.getEntriesByName('viewer-render').length > 0,
      undefined,
      {
        timeout: 30_000,
      },
    )
    const first = await page.evaluate(
      () => performance.getEntriesByName('viewer-first-pixels')[0]?.duration ?? -1,
    )
    assert.ok(first > 0, 'viewer-first-pixels recorded')
    assert.ok((await canvasMean(page)) > 5, 'the canvas shows the raw frame')
  })
})
