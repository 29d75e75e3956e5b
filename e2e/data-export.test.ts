import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { after, before, describe, it } from 'node:test'
import dcmjs from 'dcmjs'
import { r4Errors, unzip } from '../server/test/data-export/support'
import {
  ARTIFACTS,
  BASE_URL,
  fromMine,
  openPhone,
  screenshot,
  signIn,
  tap,
  view,
  type Phone,
} from './support'

/**
 * 导出我的数据 (issue 24) as the demo patient: 我的 → 设置 → 导出我的数据 → 申请导出 with the password;
 * the page follows the job to 已发送到手机; the link comes from the demo SMS outbox and downloads
 * once. The archive opens: its DICOMDIR lists every exam of the Bundle and names every DICOM file,
 * the Bundle validates against the R4 schema, and the PDFs render (pdftoppm).
 * Not covered: import into another account (not built yet).
 */

const PATIENT = { mobile: '13800000001', password: 'demo1234' }

describe('导出我的数据', () => {
  let phone: Phone
  before(async () => {
    phone = await openPhone({ width: 390, height: 844 })
    await signIn(phone, PATIENT)
  })
  after(async () => {
    await phone.close()
  })

  it('我的 → 设置 → 导出我的数据: asks, gets the SMS link, downloads an archive that opens', async () => {
    const { page } = phone
    await fromMine(page, '设置')
    await tap(view(page).locator('.nut-cell', { hasText: '导出我的数据' }))
    await view(page).getByText('导出内容').waitFor()
    await screenshot(page, 'data-export-1-page')

    await view(page).locator('.data-export__submit').click()
    const sheet = page.locator('.data-export-sheet')
    await sheet.locator('input[placeholder="请输入登录密码"]').fill(PATIENT.password)
    await screenshot(page, 'data-export-2-reauth')
    await sheet.locator('.nut-button', { hasText: '申请导出' }).click()
    // The job builds the archive; the page asks again every 3 s.
    await view(page).getByText('已发送到手机').first().waitFor({ timeout: 180_000 })
    await screenshot(page, 'data-export-3-sent')

    const sms = await fetch(`${BASE_URL}/main/demo/data-exports/sms?mobile=${PATIENT.mobile}`)
    assert.equal(sms.status, 200)
    const { data } = (await sms.json()) as { data: { text: string } }
    const link = /(https?:\/\/\S+\/main\/data-exports\/download\?token=[A-Za-z0-9_-]+)/.exec(
      data.text,
    )?.[1]
    assert.ok(link, data.text)
    const download = await fetch(link)
    assert.equal(download.status, 200)
    assert.equal(download.headers.get('content-type'), 'application/zip')
    const archive = Buffer.from(await download.arrayBuffer())
    assert.equal((await fetch(link)).status, 410, 'the link works once')
    writeFileSync(path.join(ARTIFACTS, 'data-export.zip'), archive)

    const entries = await unzip(archive)
    const bundle = JSON.parse(entries.get('fhir/bundle.json')!.toString('utf8'))
    assert.deepEqual(r4Errors(bundle), [])
    const studies = bundle.entry.filter(
      (e: { resource: { resourceType: string } }) => e.resource.resourceType === 'ImagingStudy',
    )
    assert.ok(studies.length >= 1)

    const dir = dcmjs.data.DicomMessage.readFile(
      new Uint8Array(entries.get('DICOMDIR')!).buffer as ArrayBuffer,
    )
    const records = dir.dict['00041220']?.Value as Record<string, { Value?: unknown[] }>[]
    const type = (r: (typeof records)[number]) => String(r['00041430']!.Value![0]).trim()
    assert.equal(records.filter((r) => type(r) === 'STUDY').length, studies.length)
    const images = records.filter((r) => type(r) === 'IMAGE')
    const dicomFiles = [...entries.keys()].filter((name) => name.startsWith('DICOM/'))
    assert.equal(images.length, dicomFiles.length)
    for (const image of images) {
      const file = (image['00041500']!.Value as string[]).join('/')
      assert.ok(entries.has(file), file)
    }

    const folder = mkdtempSync(path.join(tmpdir(), 'e2e-export-'))
    try {
      const pdfs = [...entries.keys()].filter((name) => name.endsWith('.pdf'))
      assert.ok(pdfs.length >= 1, 'the reports as PDF')
      for (const [i, name] of pdfs.entries()) {
        const file = path.join(folder, `${i}.pdf`)
        writeFileSync(file, entries.get(name)!)
        const out = path.join(i === 0 ? ARTIFACTS : folder, i === 0 ? 'data-export-report' : `${i}`)
        execFileSync('pdftoppm', [
          '-png',
          '-r',
          '60',
          '-f',
          '1',
          '-l',
          '1',
          '-singlefile',
          file,
          out,
        ])
        assert.ok(existsSync(`${out}.png`), `${name} renders`)
      }
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }

    await page.reload()
    await view(page).getByText('已下载').first().waitFor({ timeout: 30_000 })
    await screenshot(page, 'data-export-4-downloaded')
    assert.deepEqual(
      phone.errors.filter((e) => !e.includes('favicon')),
      [],
    )
  })
})
