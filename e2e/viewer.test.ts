import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { CDPSession, Page } from 'playwright-core'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * The DICOM viewer on a phone (issue 8), in Chromium at 390×844 with touch, on the demo patient's
 * 512² chest CT (24 slices, PixelSpacing 0.68 mm, server/src/domain/demo-records/phantoms.ts):
 * opened from 影像详情, one-finger drag changes the window (the overlay's 窗宽/窗位 and the pixels),
 * pinch and ctrl+wheel zoom, the slider and the right-edge swipe change slices, a preset applies,
 * a 10 mm line reads 10 mm ± 0.5, and a key image of the CT's report opens on its slice. The touch
 * gestures are real touch events (CDP Input.dispatchTouchEvent), not calls into the page.
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const CT_TITLE = '胸部 CT 平扫（演示）'
const CT_SLICES = 24
const CT_SPACING_MM = 0.68
/** The demo report's first key image is the 7th slice (seed.ts: slice 6, 0-based). */
const KEY_IMAGE = { comment: '右肺上叶后段实性结节', slice: 7 }

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

/** The overlay's bottom lines: 图像 n/N, 层位, 窗宽 w 窗位 c, 缩放 n%. */
async function overlay(page: Page): Promise<string> {
  return view(page).getByTestId('viewer-overlay').innerText()
}

async function windowOf(page: Page): Promise<{ width: number; center: number }> {
  const match = /窗宽\s*(-?\d+)\s*窗位\s*(-?\d+)/.exec(await overlay(page))
  assert.ok(match, `no 窗宽/窗位 in the overlay: ${await overlay(page)}`)
  return { width: Number(match[1]), center: Number(match[2]) }
}

async function sliceOf(page: Page): Promise<number> {
  const match = /图像\s*(\d+)\s*\/\s*(\d+)/.exec(await overlay(page))
  assert.ok(match, `no 图像 n/N in the overlay: ${await overlay(page)}`)
  assert.equal(Number(match[2]), CT_SLICES)
  return Number(match[1])
}

async function zoomOf(page: Page): Promise<number> {
  const match = /缩放\s*(\d+)%/.exec(await overlay(page))
  assert.ok(match, `no 缩放 in the overlay: ${await overlay(page)}`)
  return Number(match[1])
}

/**
 * What the image canvas holds now: its mean grey and a hash of every pixel's red channel, read
 * from the canvas itself (the page draws with putImageData/drawImage on a 2D context).
 */
async function canvasPixels(page: Page): Promise<{ mean: number; hash: number }> {
  return page.evaluate(() => {
    const host = document.getElementById('image-viewer-canvas')
    const canvas = host instanceof HTMLCanvasElement ? host : host?.querySelector('canvas')
    if (!canvas) throw new Error('no image canvas')
    const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data
    let sum = 0
    let hash = 0
    for (let i = 0; i < data.length; i += 4) {
      sum += data[i]!
      hash = (Math.imul(hash, 31) + data[i]!) | 0
    }
    return { mean: sum / (data.length / 4), hash }
  })
}

async function stageBox(
  page: Page,
): Promise<{ x: number; y: number; width: number; height: number }> {
  const box = await view(page).locator('#image-viewer-stage').boundingBox()
  assert.ok(box, 'the viewer stage is on screen')
  return box
}

type Finger = { x: number; y: number }

/** Fingers down at `from`, moved in `steps` to `to` (each finger by its own pair), lifted. */
async function touchGesture(
  cdp: CDPSession,
  from: Finger[],
  to: Finger[],
  steps = 12,
): Promise<void> {
  const at = (t: number) =>
    from.map((start, i) => ({
      x: start.x + (to[i]!.x - start.x) * t,
      y: start.y + (to[i]!.y - start.y) * t,
      id: i,
    }))
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: at(0) })
  for (let step = 1; step <= steps; step++) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: at(step / steps) })
    await new Promise((resolve) => setTimeout(resolve, 16))
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
}

/** Waits until `read` answers something other than `before` (the page re-renders after input). */
async function changed<T>(read: () => Promise<T>, before: T, what: string): Promise<T> {
  const deadline = Date.now() + 5000
  for (;;) {
    const now = await read()
    if (JSON.stringify(now) !== JSON.stringify(before)) return now
    if (Date.now() > deadline) assert.fail(`${what} did not change (still ${JSON.stringify(now)})`)
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
}

describe('the DICOM viewer', () => {
  let phone: Phone
  let page: Page
  let cdp: CDPSession
  let token: string

  before(async () => {
    phone = await openPhone()
    page = phone.page
    // The phone: 390×844 (support.ts's default phone is 375×812).
    await page.setViewportSize({ width: 390, height: 844 })
    token = await signIn(phone, PATIENT)
    cdp = await phone.context.newCDPSession(page)
    // The demo's studies are pushed just after the server starts listening.
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

  it('opens the demo CT from 影像详情 and paints its slices', async () => {
    await page.goto(`${BASE_URL}/pages/personalImage/index`)
    await view(page).getByText(CT_TITLE).first().click()
    await view(page).locator('.exam-detail__title', { hasText: CT_TITLE }).waitFor()
    await view(page).locator('.series-grid__tile').first().click()
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    assert.match(page.url(), /pages\/personalImage\/viewer\?/)
    // The raw frame has replaced the preview once the window is the file's own (肺窗 -600/1500).
    await page.waitForFunction(() => performance.getEntriesByName('viewer-render').length > 0)
    assert.deepEqual(await windowOf(page), { width: 1500, center: -600 })
    assert.equal(await sliceOf(page), CT_SLICES / 2)
    const overlayText = await overlay(page)
    assert.match(overlayText, /层位 -?\d+\.\d mm/)
    const top = await view(page).locator('.image-viewer__info--top').innerText()
    assert.match(top, /演示患者/)
    assert.match(top, /2026-/)
    const pixels = await canvasPixels(page)
    assert.ok(pixels.mean > 5, `the canvas shows the image (mean grey ${pixels.mean.toFixed(1)})`)
    const firstPixels = await page.evaluate(
      () => performance.getEntriesByName('viewer-first-pixels')[0]?.duration ?? -1,
    )
    assert.ok(firstPixels > 0, 'the page recorded viewer-first-pixels')
    await screenshot(page, 'viewer-ct-open')
  })

  it('one-finger drag changes the window: the overlay’s 窗宽/窗位 and the pixels', async () => {
    const box = await stageBox(page)
    const before = await windowOf(page)
    const pixels = await canvasPixels(page)
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    // Right = wider, down = … : whatever the directions, both numbers move.
    await touchGesture(cdp, [centre], [{ x: centre.x + 80, y: centre.y + 60 }])
    const after = await changed(() => windowOf(page), before, 'the window')
    assert.notEqual(after.width, before.width, 'a horizontal drag changes the width')
    assert.notEqual(after.center, before.center, 'a vertical drag changes the centre')
    await changed(() => canvasPixels(page), pixels, 'the canvas')
    await screenshot(page, 'viewer-ct-window-drag')
  })

  it('a preset applies: 纵隔窗 W350/L50, then 肺窗 W1500/L-600', async () => {
    await view(page).getByText('纵隔窗', { exact: true }).click()
    assert.deepEqual(await windowOf(page), { width: 350, center: 50 })
    await screenshot(page, 'viewer-ct-preset-mediastinum')
    await view(page).getByText('肺窗', { exact: true }).click()
    assert.deepEqual(await windowOf(page), { width: 1500, center: -600 })
  })

  it('pinch zooms around the fingers; ctrl+wheel zooms on a desktop', async () => {
    const box = await stageBox(page)
    const cx = box.x + box.width / 2
    const cy = box.y + box.height / 2
    const before = await zoomOf(page)
    await touchGesture(
      cdp,
      [
        { x: cx - 30, y: cy },
        { x: cx + 30, y: cy },
      ],
      [
        { x: cx - 90, y: cy },
        { x: cx + 90, y: cy },
      ],
    )
    const pinched = await changed(() => zoomOf(page), before, 'the zoom')
    assert.ok(pinched > before * 2, `spreading the fingers 3× zooms in (${before}% → ${pinched}%)`)
    await screenshot(page, 'viewer-ct-pinch-zoom')

    // Double tap fits again.
    await page.touchscreen.tap(cx, cy)
    await page.touchscreen.tap(cx, cy)
    const fitted = await changed(() => zoomOf(page), pinched, 'the zoom after a double tap')
    assert.equal(fitted, before)

    await page.mouse.move(cx, cy)
    await page.keyboard.down('Control')
    await page.mouse.wheel(0, -300)
    await page.keyboard.up('Control')
    const wheeled = await changed(() => zoomOf(page), fitted, 'the zoom after ctrl+wheel')
    assert.ok(wheeled > fitted, `ctrl+wheel up zooms in (${fitted}% → ${wheeled}%)`)
    await page.touchscreen.tap(cx, cy)
    await page.touchscreen.tap(cx, cy)
    await changed(() => zoomOf(page), wheeled, 'the zoom after a second double tap')
  })

  it('the slider, the right-edge swipe and the wheel change slices', async () => {
    const start = await sliceOf(page)
    const pixels = await canvasPixels(page)
    // The slider: its handle dragged with a finger towards the end (Taro's weui slider).
    const slider = view(page).locator('.image-viewer__range')
    const track = await slider.locator('.weui-slider__inner').boundingBox()
    const handle = await slider.locator('.weui-slider__handler').boundingBox()
    assert.ok(track && handle, 'the slice slider is on screen')
    const grip = { x: handle.x + handle.width / 2, y: handle.y + handle.height / 2 }
    await touchGesture(cdp, [grip], [{ x: track.x + track.width * 0.9, y: grip.y }])
    const slid = await changed(() => sliceOf(page), start, 'the slice after the slider')
    assert.ok(slid > start, `the slider near its end moves forward (${start} → ${slid})`)
    await changed(() => canvasPixels(page), pixels, 'the canvas after a slice change')
    await screenshot(page, 'viewer-ct-slider')

    // A vertical swipe in the right-edge strip scrolls the stack (hooks/gestures.ts).
    const box = await stageBox(page)
    const x = box.x + box.width - 16
    await touchGesture(
      cdp,
      [{ x, y: box.y + box.height * 0.7 }],
      [{ x, y: box.y + box.height * 0.3 }],
    )
    const swiped = await changed(() => sliceOf(page), slid, 'the slice after an edge swipe')
    await screenshot(page, 'viewer-ct-edge-swipe')

    // Desktop: the wheel steps one slice.
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2)
    await page.mouse.wheel(0, swiped > 1 ? -100 : 100)
    const wheeled = await changed(() => sliceOf(page), swiped, 'the slice after the wheel')
    assert.equal(Math.abs(wheeled - swiped), 1)
  })

  it('测距: a 10 mm line on the 0.68 mm-spaced CT reads 10 mm ± 0.5', async () => {
    // Zoomed in first, so that a finger's rounding (a CSS pixel at most) is a small part of 10 mm.
    const box = await stageBox(page)
    const cx = box.x + box.width / 2
    const cy = box.y + box.height / 2
    await touchGesture(
      cdp,
      [
        { x: cx - 20, y: cy },
        { x: cx + 20, y: cy },
      ],
      [
        { x: cx - 80, y: cy },
        { x: cx + 80, y: cy },
      ],
    )
    // 缩放 is CSS pixels per image pixel, in per cent (100% = one image pixel a CSS pixel).
    const zoom = (await zoomOf(page)) / 100
    assert.ok(zoom > 1.5, `zoomed in (${zoom * 100}%)`)
    await view(page).getByText('测距', { exact: true }).click()
    const length = (10 / CT_SPACING_MM) * zoom
    const from = { x: cx - length / 2, y: cy + 20 }
    await touchGesture(cdp, [from], [{ x: from.x + length, y: from.y }], 8)
    const result = view(page).getByTestId('viewer-measure')
    await result.first().waitFor()
    const text = await result.first().innerText()
    const match = /([\d.]+)\s*mm/.exec(text)
    assert.ok(match, `a result in mm: ${text}`)
    const mm = Number(match[1])
    assert.ok(Math.abs(mm - 10) <= 0.5, `the 10 mm line reads ${mm} mm`)
    assert.doesNotMatch(text, /约/, 'PixelSpacing is exact: no 约')
    await screenshot(page, 'viewer-ct-measure-10mm')
    await view(page).getByText('测距', { exact: true }).click()
    await view(page).getByText('复位', { exact: true }).click()
  })

  it('a key image of the CT’s report opens the viewer on its slice', async () => {
    await page.goto(`${BASE_URL}/pages/personalReport/index`)
    const card = view(page).locator('.report-card', { hasText: '胸部' }).first()
    await card.waitFor()
    await card.click()
    await view(page).getByText('查看关键图像').first().click()
    await view(page).getByText(KEY_IMAGE.comment, { exact: false }).first().click()
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => performance.getEntriesByName('viewer-render').length > 0)
    assert.equal(await sliceOf(page), KEY_IMAGE.slice)
    await screenshot(page, 'viewer-ct-key-image')
  })

  it('横屏全屏 without the Fullscreen API or an orientation lock turns the viewer with CSS', async () => {
    // iOS Safari and WeChat's browser: neither API. The page is loaded again without them.
    await page.addInitScript(() => {
      delete (Element.prototype as { requestFullscreen?: unknown }).requestFullscreen
      delete (Document.prototype as { exitFullscreen?: unknown }).exitFullscreen
      if (typeof ScreenOrientation !== 'undefined')
        delete (ScreenOrientation.prototype as { lock?: unknown }).lock
    })
    await page.reload()
    await view(page).getByTestId('viewer-overlay').waitFor({ timeout: 30_000 })
    await page.waitForFunction(() => performance.getEntriesByName('viewer-render').length > 0)
    assert.equal(
      await page.evaluate(() => typeof document.documentElement.requestFullscreen),
      'undefined',
    )
    const stageSize = () =>
      page.evaluate(() => {
        const stage = document.getElementById('image-viewer-stage')!
        const box = stage.getBoundingClientRect()
        // Its own (layout) size, and the box it covers on screen.
        return {
          width: stage.offsetWidth,
          height: stage.offsetHeight,
          box: [box.width, box.height],
        }
      })
    const upright = await stageSize()
    assert.ok(upright.width < upright.height, `upright first: ${JSON.stringify(upright)}`)

    await view(page).getByText('横屏全屏', { exact: true }).click()
    await view(page).getByText('退出全屏').waitFor()
    // The stage is landscape in its own pixels (the window's height wide), and covers the
    // portrait window turned: 844 high on screen, at most the window's 390 wide.
    const turned = await changed(stageSize, upright, 'the stage size')
    assert.ok(turned.width > turned.height, `landscape: ${JSON.stringify(turned)}`)
    assert.ok(turned.width >= 840, `the window's height wide: ${JSON.stringify(turned)}`)
    assert.ok(turned.box[1]! >= 840 && turned.box[0]! <= 390, `turned: ${JSON.stringify(turned)}`)
    // Nothing of the app's frame covers it: H5's navigation bar is hidden meanwhile.
    assert.equal(await page.locator('#taro-navigation-bar').isVisible(), false)
    const cover = await page.evaluate(() => {
      const box = document.querySelector('.image-viewer--turned')!.getBoundingClientRect()
      return [box.left, box.top, box.width, box.height].map(Math.round)
    })
    assert.deepEqual(cover, [0, 0, 390, 844], 'the turned viewer covers the whole window')
    // The new stage is drawn: wait for the painter's next render, then the picture.
    await page.waitForTimeout(300)
    await screenshot(page, 'viewer-ct-turned')

    // A finger drawn down the screen moves along the turned stage's x: the width changes only.
    const box = await stageBox(page)
    const centre = { x: box.x + box.width / 2, y: box.y + box.height / 2 }
    const before = await windowOf(page)
    await touchGesture(cdp, [centre], [{ x: centre.x, y: centre.y + 120 }])
    const dragged = await changed(() => windowOf(page), before, 'the window after a turned drag')
    assert.ok(dragged.width > before.width, `down the screen widens: ${JSON.stringify(dragged)}`)
    assert.equal(dragged.center, before.center, 'and leaves the centre')
    // The mouse too: right on the screen is up the turned stage (its −y): the centre only. (Mouse
    // events within a second of a touch are taken as the touch's own and ignored.)
    await page.waitForTimeout(1100)
    await page.mouse.move(centre.x, centre.y)
    await page.mouse.down()
    for (let step = 1; step <= 10; step++) await page.mouse.move(centre.x + step * 8, centre.y)
    await page.mouse.up()
    const moused = await changed(() => windowOf(page), dragged, 'the window after a mouse drag')
    assert.equal(moused.width, dragged.width, 'a mouse drag across the screen keeps the width')
    assert.ok(moused.center < dragged.center, `and lowers the centre: ${JSON.stringify(moused)}`)

    await view(page).getByText('退出全屏').click()
    const back = await changed(stageSize, turned, 'the stage size after 退出全屏')
    assert.equal(await page.locator('#taro-navigation-bar').isVisible(), true)
    assert.ok(back.width < back.height, `upright again: ${JSON.stringify(back)}`)
    assert.equal(Math.round(back.box[0]!), back.width, 'and not turned')
  })

  it('logged no console errors', () => {
    assert.deepEqual(phone.errors, [])
  })
})
