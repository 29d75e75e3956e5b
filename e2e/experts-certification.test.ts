import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { PASSWORD, addPhoto, button, idNumber, register, type } from './experts-support'
import { BASE_URL, openPhone, screenshot, signIn, view, type Phone } from './support'

/**
 * 专家认证, the applicant's side (issue 20): a new patient starts from 我的, is told to bind an ID
 * card first and does, fills the form (hospital from 选择医院, its department, title, certificate
 * numbers, specialities, the two certificate photos), is stopped until the agreement is ticked,
 * submits and sees 待审核. The rest of the way (待审核 on 我的, the operator's review, the fix after
 * 已驳回, the directory, 搜索, 收藏, 暂停接诊, 停诊) is experts-journey.test.ts's.
 */

const PHONE_SIZE = { width: 390, height: 844 }

describe('专家认证: a patient applies', () => {
  let phone: Phone

  before(async () => {
    const mobile = await register()
    phone = await openPhone(PHONE_SIZE)
    await signIn(phone, { mobile, password: PASSWORD })
  })
  after(async () => {
    await phone.close()
  })

  it('from 我的, binds the ID card the page asks for first', async () => {
    const { page } = phone
    await page.goto(`${BASE_URL}/pages/user/user`)
    await view(page).locator('.nut-cell', { hasText: '申请成为专家' }).click()
    await view(page).getByText('成为医影通认证专家').waitFor()
    await view(page).getByText('请先绑定本人身份证：认证的姓名以身份证为准').waitFor()
    await screenshot(page, 'experts-intro-no-idcard')

    await button(page, '去绑定身份证').click()
    await view(page).getByText('提交认证').waitFor()
    await type(page, '与身份证一致', '陈认证')
    await type(page, '18 位居民身份证号', idNumber())
    await view(page).locator('.form-submit').click()
    await view(page).locator('.idcard-card__badge', { hasText: '已绑定' }).waitFor()
    await page.goBack()
    await view(page).getByText('开始认证').waitFor()
    await view(page)
      .getByText('请先绑定本人身份证', { exact: false })
      .waitFor({ state: 'detached' })
  })

  it('fills the form: hospital from 选择医院, department, numbers, specialities, photos', async () => {
    const { page } = phone
    await button(page, '开始认证').click()
    await view(page).getByText('执业信息').waitFor()
    await screenshot(page, 'experts-form-empty')

    // Nothing filled: each field says what it needs, in the contract's words.
    await button(page, '提交审核').click()
    await view(page).getByText('请选择医院').waitFor()
    await view(page).getByText('请上传执业证书信息页和注册页照片').waitFor()
    await screenshot(page, 'experts-form-errors')

    await view(page).locator('[aria-label="选择医院"]').click()
    await view(page).getByText('找不到我的医院？').waitFor()
    await view(page).getByText('演示').first().waitFor()
    await screenshot(page, 'experts-select-hospital')
    await view(page).locator('.select-hospital__search input').fill('第一人民')
    await view(page).locator('.select-hospital__name', { hasText: '示例市第一人民医院' }).click()

    await view(page).getByText('示例市第一人民医院').waitFor()
    await view(page).locator('[aria-label="选择科室"]').click()
    await page.locator('.cert-sheet__item:visible', { hasText: '放射科' }).click()
    await view(page).locator('[aria-label="科室：放射科，点击更换"]').waitFor()
    await view(page).locator('.cert-chip', { hasText: '主治医师' }).click()
    await type(page, '见执业证书信息页', '110101200112345')
    await type(page, '见医师资格证书', '200111110101123456789012345')
    await view(page).locator('.cert-chip', { hasText: '临床' }).click()
    await type(page, '与执业证书一致，如 医学影像和放射治疗专业', '医学影像和放射治疗专业')
    await view(page).locator('.cert-tag', { hasText: '胸部影像' }).click()
    await view(page)
      .locator('.cert-tag', { hasText: /^肺结节$/ })
      .click()
    await view(page).locator('textarea').fill('从事胸部影像诊断十余年，擅长肺结节的随访与鉴别。')
    await addPhoto(page, '执业证书信息页')
    await addPhoto(page, '执业证书注册页')
    await screenshot(page, 'experts-form-filled')
  })

  it('waits for the agreement, then submits and sees 待审核 (on 我的: experts-journey)', async () => {
    const { page } = phone
    await button(page, '提交审核').click()
    await view(page).getByText('请阅读并同意《专家服务协议》').waitFor()
    assert.equal(await view(page).locator('.cert-status').count(), 0)
    await view(page).getByText('我已阅读并同意').click()
    await button(page, '提交审核').click()
    await view(page).locator('.cert-status__label', { hasText: '待审核' }).waitFor()
    await view(page).getByText('撤回申请').waitFor()
    await view(page).getByText('110101200112345').waitFor()
    await screenshot(page, 'experts-pending')
  })
})
