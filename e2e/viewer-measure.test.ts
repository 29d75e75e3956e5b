import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { CDPSession, Page } from 'playwright-core'
import {
  BASE_URL,
  openPhone,
  screenshot,
  settle,
  signIn,
  touchDrag,
  view,
  type Phone,
  type Point,
} from './support'

/**
 * Findings pinned to the image (issue 23), the viewer's side, in Chromium at 390×844 with touch on
 * the demo patient's chest CT (512², PixelSpacing 0.68 mm): opened from where a person starts
 * (首页 → 我的 → 我的影像 → the CT → its series), a 椭圆 ROI dragged with a finger reads its mean ± SD
 * in HU, min/max and its area in mm²; the viewer opened as a pinned sentence opens it (seriesUid,
 * sop, frame and `measure`) shows the same ellipse with the same label; pin mode shows 附到意见.
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const CT_TITLE = '胸部 CT 平扫（演示）'
const CT_SPACING_MM = 0.68

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

/**
 * The image point under a client point, through the image canvas's own CSS matrix (painter.ts
 * imageStyle: the image's pixels placed on the stage), as the viewer maps a finger.
 */
async function imagePointAt(page: Page, client: Point): Promise<Point> {
  return page.evaluate(({ x, y }) => {
    const canvas = document.getElementById('image-viewer-canvas')!
    const stage = document.getElementById('image-viewer-stage')!.getBoundingClientRect()
    const m = new DOMMatrixReadOnly(canvas.style.transform)
    const p = m.inverse().transformPoint(new DOMPoint(x - stage.left, y - stage.top))
    return { x: p.x, y: p.y }
  }, client)
}

/** Where the fingers really landed: the first touchstart and the last touchmove on the stage. */
async function recordTouches(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { touchesSeen: { start?: number[]; end?: number[] } }
    w.touchesSeen = {}
    const stage = document.getElementById('image-viewer-stage')!
    stage.addEventListener('touchstart', (e) => {
      w.touchesSeen.start = [e.touches[0]!.clientX, e.touches[0]!.clientY]
    })
    stage.addEventListener('touchmove', (e) => {
      w.touchesSeen.end = [e.touches[0]!.clientX, e.touches[0]!.clientY]
    })
  })
}

async function touchesSeen(page: Page): Promise<{ start: Point; end: Point }> {
  const seen = await page.evaluate(
    () => (window as unknown as { touchesSeen: { start: number[]; end: number[] } }).touchesSeen,
  )
  return {
    start: { x: seen.start[0]!, y: seen.start[1]! },
    end: { x: seen.end[0]!, y: seen.end[1]! },
  }
}

const tenth = (n: number) => String(Math.round(n * 10) / 10)

/** The labels drawn: each `viewer-measure` block's lines. */
async function measureLabels(page: Page): Promise<string[]> {
  return view(page)
    .getByTestId('viewer-measure')
    .evaluateAll((blocks) =>
      blocks.map((block) =>
        Array.from(block.children)
          .map((line) => line.textContent)
          .join('\n'),
      ),
    )
}

async function box(page: Page, selector: string) {
  const found = await view(page).locator(selector).first().boundingBox()
  assert.ok(found, `${selector} is on screen`)
  return found
}

/** The labels stay inside the stage and off the patient lines. */
async function labelsFit(page: Page): Promise<void> {
  const stage = await box(page, '#image-viewer-stage')
  const labels = await box(page, '.image-viewer__measures')
  const info = await box(page, '.image-viewer__info--top')
  assert.ok(labels.x >= stage.x && labels.x + labels.width <= stage.x + stage.width + 0.5)
  const apart =
    labels.x >= info.x + info.width ||
    labels.y >= info.y + info.height ||
    info.y >= labels.y + labels.height
  assert.ok(
    apart,
    `the label ${JSON.stringify(labels)} covers the patient lines ${JSON.stringify(info)}`,
  )
}

describe('the viewer: 椭圆 ROI and pinned findings', () => {
  let phone: Phone
  let page: Page
  let cdp: CDPSession
  /** The slice the CT opened on, from its first frame request. */
  let shown: { examId: string; studyUid: string; seriesUid: string; sop: string; frame: number }
  let drawn: { measure: string; label: string }

  before(async () => {
    phone = await openPhone({ width: 390, height: 844 })
    page = phone.page
    const token = await signIn(phone, PATIENT)
    cdp = await phone.context.newCDPSession(page)
    for (let i = 0; i < 240; i++) {
      const groups = await api<{ latest: { title: string; status: string }[] }[]>(
        token,
        '/main/images',
      )
      const ct = groups.flatMap((g) => g.latest).find((exam) => exam.title === CT_TITLE)
      if (ct?.status === 'ready') break
      await new Promise((resolve) => setTimeout(resolve, 500))
    }
  })
  after(async () => {
    await phone.close()
  })

  it('opens the demo CT from 首页 → 我的 → 我的影像 → the CT → its series', async () => {
    await page.goto(`${BASE_URL}/pages/main/main`)
    await settle(page)
    await page.locator('.weui-tabbar').getByText('我的').click()
    await settle(page)
    await view(page).locator('.nut-cell', { hasText: '我的影像' }).click()
    await settle(page)
    await view(page).getByText(CT_TITLE).first().click()
    await view(page).locator('.exam-detail__title', { hasText: CT_TITLE }).waitFor()
    const firstFrame = page.waitForRequest((request) =>
      /\/instances\/[^/]+\/frames\/\d+$/.test(new URL(request.url()).pathname),
    )
    await view(page).locator('.series-grid__tile').first().click()
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => performance.getEntriesByName('viewer-render').length > 0)
    const path = new URL((await firstFrame).url()).pathname
    const m = /studies\/([^/]+)\/series\/([^/]+)\/instances\/([^/]+)\/frames\/(\d+)$/.exec(path)
    assert.ok(m, path)
    const examId = new URL(page.url()).searchParams.get('examId')
    assert.ok(examId, page.url())
    shown = { examId, studyUid: m[1]!, seriesUid: m[2]!, sop: m[3]!, frame: Number(m[4]) }
  })

  it('椭圆: a finger drags an ellipse ROI; its label reads mean ± SD in HU and mm²', async () => {
    await view(page).getByTestId('viewer-tool-ellipse').click()
    await view(page)
      .getByText(/拖动画出椭圆/)
      .waitFor()
    const stage = await box(page, '#image-viewer-stage')
    await recordTouches(page)
    // Over the middle of the chest: mediastinum and lung, a wide spread of HU.
    const from = { x: stage.x + stage.width * 0.38, y: stage.y + stage.height * 0.4 }
    const to = { x: stage.x + stage.width * 0.62, y: stage.y + stage.height * 0.55 }
    await touchDrag(cdp, from, to)
    await view(page).getByTestId('viewer-measure').first().waitFor()
    const [label] = await measureLabels(page)
    assert.ok(label, 'a label is drawn')
    assert.match(
      label,
      /^均值 -?\d+\.\d ± \d+\.\d HU\n最小 -?\d+ 最大 -?\d+ HU · 面积 \d+\.\d mm²$/,
    )

    // Its area is π·a·b at 0.68 mm a pixel, for the box the finger really drew.
    const seen = await touchesSeen(page)
    const a = await imagePointAt(page, seen.start)
    const b = await imagePointAt(page, seen.end)
    const expected = (Math.PI * Math.abs(b.x - a.x) * Math.abs(b.y - a.y) * CT_SPACING_MM ** 2) / 4
    const area = Number(/面积 ([\d.]+) mm²/.exec(label)![1])
    assert.ok(Math.abs(area - expected) / expected < 0.02, `area ${area} mm² for ${expected} mm²`)
    await labelsFit(page)
    await screenshot(page, 'viewer-measure-ellipse')
    drawn = { measure: `ellipse:${tenth(a.x)},${tenth(a.y)};${tenth(b.x)},${tenth(b.y)}`, label }
  })

  it('show mode: the viewer opened on the pin draws the same ellipse with the same label', async () => {
    const query = new URLSearchParams({
      examId: shown.examId,
      studyUid: shown.studyUid,
      seriesUid: shown.seriesUid,
      sop: shown.sop,
      frame: String(shown.frame),
      measure: drawn.measure,
    })
    await page.goto(`${BASE_URL}/pages/personalImage/viewer?${query}`)
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => performance.getEntriesByName('viewer-render').length > 0)
    await view(page).getByTestId('viewer-measure').first().waitFor()
    // The label is recomputed from the pixels once they are here (the area alone before).
    const deadline = Date.now() + 10_000
    while (!(await measureLabels(page)).some((label) => label.startsWith('均值'))) {
      assert.ok(Date.now() < deadline, `no values: ${JSON.stringify(await measureLabels(page))}`)
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    assert.deepEqual(await measureLabels(page), [drawn.label])
    await labelsFit(page)
    await screenshot(page, 'viewer-measure-shown')
  })

  it('pin mode: 附到意见 is a clear primary button that covers no tool', async () => {
    const query = new URLSearchParams({ examId: shown.examId, pin: 'e2e-field' })
    await page.goto(`${BASE_URL}/pages/personalImage/viewer?${query}`)
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    const attach = await box(page, '[data-testid="viewer-attach"]')
    assert.ok(attach.width > 300 && attach.height >= 44, JSON.stringify(attach))
    const stage = await box(page, '#image-viewer-stage')
    assert.ok(attach.y >= stage.y + stage.height - 0.5, 'below the image, not over it')
    const tools = await box(page, '.image-viewer__tools')
    assert.ok(attach.y + attach.height <= tools.y + 0.5, 'above the tools, not over them')
    await screenshot(page, 'viewer-measure-pin-mode')
  })

  it('logged no console errors', () => {
    assert.deepEqual(phone.errors, [])
  })
})
