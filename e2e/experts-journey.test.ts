import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import {
  OPERATOR,
  PASSWORD,
  PATIENT,
  addPhoto,
  api,
  button,
  confirmModal,
  idNumber,
  quietScreenshot,
  register,
  runName,
  uploadPhoto,
} from './experts-support'
import {
  BASE_URL,
  openPhone,
  screenshot,
  settle,
  signIn,
  view,
  type Phone,
  tab,
  fromMine,
} from './support'

/**
 * Issue 20's "Done when", whole, at 390×844, each person starting where people start (home, a tab,
 * 我的) and tapping in. A new account binds its ID card and applies with photos (through the API:
 * experts-certification.test.ts taps those screens), sees 待审核 from 我的; the demo operator opens
 * the application in 运营后台 (fields beside the photos fetched with the token, the registry step),
 * rejects it with a reason; the applicant reads the reason, replaces the photo and resubmits; the
 * operator approves. The new expert is in 找专家 (home → 找专家) and in 搜索 by a partial word of
 * their hospital; the demo patient opens the profile from there and 收藏 (the count moves); the
 * expert pauses 接诊 in 我的 → 服务设置 and the profile says 暂停接诊; the operator suspends the
 * expert in 运营后台 → 专家管理 and the profile is gone from 找专家 and from its own address.
 */

const PHONE_390 = { width: 390, height: 844 }
const HOSPITAL = '示例市第一人民医院'
/** A part of the hospital's name, as a patient remembers it. */
const HOSPITAL_WORD = '一人民'
const PRACTICE_NO = '110101198001011'
const QUALIFICATION_NO = '199811110101198001011234567'
const REGISTRY_STEP =
  '在国家卫生健康委员会「医生执业注册信息查询」（https://zwfw.nhc.gov.cn）按姓名、证书编码核对执业地点、类别、范围'
const REASON = '执业证书注册页照片不清楚，请重新拍摄后提交'
const SUSPEND_REASON = '执业注册信息核对中（演示）'
const NOT_FOUND = '专家不存在或已暂停服务'

/** 运营后台's queue or 专家管理, from 我的. */
async function openConsole(page: Page, tabName: '专家认证' | '专家管理'): Promise<void> {
  await fromMine(page, '运营后台')
  await view(page).locator('[role=tab]', { hasText: tabName }).click()
}

async function queueFilter(page: Page, status: '待审核' | '已驳回' | '已认证'): Promise<void> {
  await view(page).locator('[role=radio]', { hasText: status }).click()
  await page.waitForLoadState('networkidle')
  await settle(page)
}

function queueRow(page: Page, name: string) {
  return view(page).locator('.operator__row', { hasText: name })
}

/** Until every picture on screen has arrived and decoded (a revoked address never does). */
async function photosShown(page: Page): Promise<void> {
  await page.waitForFunction(() => {
    const images = Array.from(document.querySelectorAll<HTMLImageElement>('.taro_page img'))
    const shown = images.filter((image) => image.checkVisibility())
    return shown.length > 0 && shown.every((image) => image.complete && image.naturalWidth > 0)
  })
}

/**
 * The request a page makes and answers in words: the suspended expert's profile, 404 (and
 * Chromium's console line for it).
 */
function unexpected(errors: string[]): string[] {
  const profile404 = errors.some((error) => /^404 .*\/main\/experts\/[^/?]+$/.test(error))
  return errors.filter(
    (error) =>
      !/^404 .*\/main\/experts\/[^/?]+$/.test(error) &&
      !(profile404 && error.includes('status of 404 (Not Found)')),
  )
}

describe('an expert’s whole way: apply, be reviewed, be found, be collected, pause, be suspended', () => {
  let applicant: Phone
  let operator: Phone
  let patient: Phone
  let token: string
  let expertId: string
  const name = runName()

  before(async () => {
    const mobile = await register()
    ;[applicant, operator, patient] = await Promise.all([
      openPhone(PHONE_390),
      openPhone(PHONE_390),
      openPhone(PHONE_390),
    ])
    const [applicantToken] = await Promise.all([
      signIn(applicant, { mobile, password: PASSWORD }),
      signIn(operator, OPERATOR),
      signIn(patient, PATIENT),
    ])
    token = applicantToken
    await api('/main/account/idcard', { token, body: { realName: name, idCard: idNumber() } })
    const hospitals = await api<{ id: string; name: string }[]>('/sso/hospitals')
    const hospital = hospitals.find((item) => item.name === HOSPITAL)
    assert.ok(hospital, `${HOSPITAL} is a demo hospital`)
    await api('/main/experts/application', {
      token,
      body: {
        hospitalId: hospital.id,
        department: '放射科',
        title: 'chief',
        practiceCertificateNo: PRACTICE_NO,
        qualificationCertificateNo: QUALIFICATION_NO,
        practiceCategory: 'clinical',
        practiceScope: '医学影像和放射治疗专业',
        specialities: ['肺结节', '胸部影像'],
        introduction: '从事胸部影像诊断二十年（演示）。',
      },
    })
    await uploadPhoto(token, 'practice-info')
    await uploadPhoto(token, 'practice-registration')
    const agreement = await api<{ version: string }>('/main/app/agreements/expert')
    const submitted = await api<{ id: string; status: string }>(
      '/main/experts/application/submit',
      { token, body: { agreementVersion: agreement.version } },
    )
    assert.equal(submitted.status, 'pending')
    expertId = (await api<{ id: string }>('/main/account/profile', { token })).id
  })
  after(async () => {
    await Promise.all([applicant?.close(), operator?.close(), patient?.close()])
  })

  it('the applicant sees 待审核 on 我的 and on 专家认证', async () => {
    const { page } = applicant
    await page.goto(`${BASE_URL}/pages/main/main`)
    await tab(page, '我的')
    const entry = view(page).locator('.nut-cell', { hasText: '专家认证' })
    await entry.getByText('待审核').waitFor()
    await screenshot(page, 'journey-mine-pending')
    await entry.click()
    await view(page).locator('.cert-status__label', { hasText: '待审核' }).waitFor()
    await view(page).getByText(PRACTICE_NO, { exact: true }).waitFor()
    await screenshot(page, 'journey-pending')
  })

  it('the operator opens it from the queue: fields beside the photos, the registry step; rejects it with a reason', async () => {
    const { page } = operator
    await openConsole(page, '专家认证')
    const row = queueRow(page, name)
    const text = await row.innerText()
    assert.match(text, new RegExp(`${HOSPITAL} · 放射科 · 主任医师`))
    assert.match(text, /待审核/)
    assert.match(text, /提交于 \d{4}-\d{2}-\d{2} \d{2}:\d{2}/)
    await screenshot(page, 'journey-queue')
    await row.click()
    await view(page).getByText(REGISTRY_STEP).waitFor()
    for (const text of [PRACTICE_NO, QUALIFICATION_NO, '医学影像和放射治疗专业', '临床']) {
      await view(page).getByText(text, { exact: true }).first().waitFor()
    }
    // Both photos arrive with the operator's token (they are never public).
    await view(page).locator('.expert-review__photos img').nth(1).waitFor()
    await page.waitForFunction(() =>
      Array.from(document.querySelectorAll<HTMLImageElement>('.expert-review__photos img')).every(
        (image) => image.complete && image.naturalWidth > 0,
      ),
    )
    await screenshot(page, 'journey-application')
    // A tap on a photo opens it large.
    await view(page).getByLabel('查看大图：执业证书注册页').click()
    const preview = page.locator('.taro-preview-image, .preview-image').first()
    await preview.waitFor()
    await preview.click()
    await preview.waitFor({ state: 'detached' })

    // 驳回 without a reason is refused in the contract's words, before any request.
    await button(page, /^驳回$/).click()
    await view(page).getByText('请填写驳回原因，申请人会看到它').first().waitFor()
    await view(page).locator('textarea').fill(REASON)
    await button(page, /^驳回$/).click()
    await confirmModal(page, '驳回')
    await view(page).getByText(`驳回原因：${REASON}`).waitFor()
    await quietScreenshot(page, 'journey-rejected-operator')
    await button(page, '返回审核队列').click()
    await queueFilter(page, '待审核')
    assert.equal(await queueRow(page, name).count(), 0, 'a rejected application is not waiting')
    await queueFilter(page, '已驳回')
    await queueRow(page, name).waitFor()
  })

  it('the applicant reads the reason, replaces the photo and resubmits', async () => {
    const { page } = applicant
    await fromMine(page, '专家认证')
    await view(page).locator('.cert-status__label', { hasText: '已驳回' }).waitFor()
    await view(page).getByText(REASON).waitFor()
    await photosShown(page)
    await screenshot(page, 'journey-rejected')
    applicant.errors.length = 0
    await button(page, '修改后重新提交').click()
    // The form shows the photos the summary showed, handed over (no second download, no revoked
    // address: issue 20's two ERR_FILE_NOT_FOUND).
    const old = view(page).locator('[aria-label="删除执业证书注册页第 1 张"]')
    await old.waitFor()
    await photosShown(page)
    await screenshot(page, 'journey-fix-form')
    await old.click()
    await old.waitFor({ state: 'detached' })
    await addPhoto(page, '执业证书注册页')
    const agree = view(page).locator('[aria-label="同意《专家服务协议》"]')
    if ((await agree.getAttribute('aria-checked')) !== 'true') await agree.click()
    await button(page, '提交审核').click()
    await view(page).locator('.cert-status__label', { hasText: '待审核' }).waitFor()
    await quietScreenshot(page, 'journey-resubmitted')
    assert.deepEqual(applicant.errors, [], 'no console error from 已驳回 to the form and back')
  })

  it('the operator approves it', async () => {
    const { page } = operator
    await openConsole(page, '专家认证')
    await queueRow(page, name).click()
    await view(page).getByText(REGISTRY_STEP).waitFor()
    await button(page, '通过认证').click()
    await confirmModal(page, '通过')
    await view(page)
      .getByText(/^已通过认证（/)
      .waitFor()
    await quietScreenshot(page, 'journey-approved')
    await button(page, '返回审核队列').click()
    await queueFilter(page, '待审核')
    assert.equal(await queueRow(page, name).count(), 0, 'an approved application is not waiting')
    await queueFilter(page, '已认证')
    await queueRow(page, name).waitFor()
  })

  it('a patient finds the new expert in 找专家 and in 搜索 by a part of the hospital, and 收藏', async () => {
    const { page } = patient
    await page.goto(`${BASE_URL}/pages/user/user`)
    await tab(page, '首页')
    await view(page).locator('.home__entry', { hasText: '找专家' }).click()
    const card = view(page).locator('.expert-card', { hasText: name })
    await card.waitFor()
    assert.match(await card.innerText(), new RegExp(`${HOSPITAL} · 放射科`))
    await screenshot(page, 'journey-directory')

    await page.goBack()
    await view(page).locator('.home__search').click()
    const input = view(page).locator('.search__bar input')
    await input.fill(HOSPITAL_WORD)
    await view(page).locator('.search__go').click()
    await view(page).locator('[role=tab]', { hasText: '专家' }).click()
    const hit = view(page).locator('.search__hit', { hasText: name })
    await hit.waitFor()
    await view(page).locator('.search__mark', { hasText: HOSPITAL_WORD }).first().waitFor()
    await screenshot(page, 'journey-search')
    await hit.click()

    await view(page).locator('.expert-profile__name', { hasText: name }).waitFor()
    const favourite = view(page).locator('.expert-profile__favourite')
    assert.equal(await favourite.getAttribute('aria-label'), '收藏，0 人收藏')
    await favourite.click()
    await view(page).locator('[aria-label="已收藏，1 人收藏"]').waitFor()
    assert.ok(page.url().includes(`id=${expertId}`))
    await quietScreenshot(page, 'journey-profile-collected')
  })

  it('the expert pauses 接诊 in 我的 → 服务设置; the profile says 暂停接诊', async () => {
    const { page } = applicant
    await fromMine(page, '服务设置')
    const toggle = view(page).locator('[aria-label="接诊中"]')
    await toggle.waitFor()
    await toggle.click()
    await view(page).locator('.expert-settings__name', { hasText: '暂停接诊' }).waitFor()
    await quietScreenshot(page, 'journey-paused')

    await patient.page.reload()
    await view(patient.page).getByText('专家暂停接诊，暂不接受新的咨询').waitFor()
    await screenshot(patient.page, 'journey-profile-paused')
  })

  it('the operator suspends the expert in 专家管理; the profile is gone from 找专家 and its address', async () => {
    const { page } = operator
    await openConsole(page, '专家管理')
    await view(page).locator('input[placeholder="姓名、医院、科室或擅长方向"]').fill(name)
    await button(page, '搜索').click()
    const row = queueRow(page, name)
    await row.getByText('服务中').waitFor()
    await row.locator('.nut-button', { hasText: '暂停服务' }).click()
    await row.locator('textarea').fill(SUSPEND_REASON)
    await row.locator('.nut-button', { hasText: '确认暂停' }).click()
    await confirmModal(page, '暂停')
    await row.locator('.expert-status', { hasText: '已暂停' }).waitFor()
    await quietScreenshot(page, 'journey-suspended')

    const other = patient.page
    await other.reload()
    await view(other).getByText(NOT_FOUND).waitFor()
    await screenshot(other, 'journey-profile-gone')
    await other.goto(`${BASE_URL}/pages/main/main`)
    await view(other).locator('.home__entry', { hasText: '找专家' }).click()
    await view(other).locator('.expert-card').first().waitFor()
    assert.equal(await view(other).locator('.expert-card', { hasText: name }).count(), 0)

    assert.deepEqual(unexpected(operator.errors), [], 'the operator saw no error')
    assert.deepEqual(unexpected(patient.errors), [], 'the patient saw no error')
    assert.deepEqual(unexpected(applicant.errors), [], 'the expert saw no error')
  })
})
