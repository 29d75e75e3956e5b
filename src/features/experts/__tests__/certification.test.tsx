import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { EXPERT_MESSAGES } from '@contract/main/experts'
import { HOSPITAL_REQUEST_MESSAGES } from '@contract/main/hospital-requests'
import { REASONS } from '@contract/reasons'
import { typeInto } from '@/components/form/__tests__/inputs'
import { profile } from '@/services/__tests__/account-fixtures'
import { getAgreement } from '@/services/app-info'
import {
  deleteExpertPhoto,
  emitExpertHospitalPicked,
  getMyExpertApplication,
  saveExpertDraft,
  submitExpertApplication,
  uploadExpertPhoto,
  withdrawExpertApplication,
} from '@/services/experts'
import { listHospitalDepartments } from '@/services/hospital-directory'
import { HttpError } from '@/services/http'
import { refreshProfile } from '@/services/profile'
import { downloadAuthorisedImage } from '@/services/records'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'
import { application, completeDraft, hospitalRequest } from './fixtures'

jest.mock('@/services/experts', () => ({
  ...jest.requireActual<typeof import('@/services/experts')>('@/services/experts'),
  getMyExpertApplication: jest.fn(),
  saveExpertDraft: jest.fn(),
  submitExpertApplication: jest.fn(),
  withdrawExpertApplication: jest.fn(),
  uploadExpertPhoto: jest.fn(),
  deleteExpertPhoto: jest.fn(),
}))
jest.mock('@/services/app-info', () => ({
  ...jest.requireActual<typeof import('@/services/app-info')>('@/services/app-info'),
  getAgreement: jest.fn(),
}))
jest.mock('@/services/hospital-directory', () => ({
  ...jest.requireActual<typeof import('@/services/hospital-directory')>(
    '@/services/hospital-directory',
  ),
  listHospitalDepartments: jest.fn(),
}))
jest.mock('@/services/profile', () => ({
  ...jest.requireActual<typeof import('@/services/profile')>('@/services/profile'),
  refreshProfile: jest.fn(),
}))
jest.mock('@/services/records', () => ({
  ...jest.requireActual<typeof import('@/services/records')>('@/services/records'),
  downloadAuthorisedImage: jest.fn(),
}))

const PAGE = 'pages/expertPerfect/expertPerfect'
const CERT_PLACEHOLDER = '见执业证书信息页'

/** The server's refusal, with its reason code when it gives one. */
function refusal(error: string, reason?: string, statusCode = 400): HttpError {
  return new HttpError(
    {
      statusCode,
      data: { code: statusCode, message: error, data: null, error, ...(reason ? { reason } : {}) },
      header: {},
    },
    'business',
  )
}

let toast: jest.SpyInstance
let navigateTo: jest.SpyInstance
beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile({ idCardStatus: 'bound' }))
  toast = jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'navigateTo:ok' })
  jest.mocked(refreshProfile).mockImplementation(async () => useAppStore.getState().profile!)
  jest.mocked(getAgreement).mockResolvedValue({
    kind: 'expert',
    title: '专家服务协议',
    version: '2026-11',
    content: '协议正文',
    updatedAt: '2026-11-01T00:00:00.000Z',
  })
  jest.mocked(listHospitalDepartments).mockResolvedValue([
    { id: 'd1', hospitalId: 'demo-hospital-01', name: '放射科' },
    { id: 'd2', hospitalId: 'demo-hospital-01', name: '心内科' },
  ])
  jest.mocked(downloadAuthorisedImage).mockResolvedValue({ src: 'blob:photo', release: () => {} })
})
afterEach(() => navigateTo.mockRestore())

describe('专家认证: where the application stands', () => {
  it('without an application: what certification is, and 开始认证 opens the form', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(null)
    await renderPage(PAGE)
    expect(await screen.findByText('成为医影通认证专家')).toBeTruthy()
    expect(screen.getByText('证书编码和照片仅您和审核人员可见，不会公开。')).toBeTruthy()
    fireEvent.click(screen.getByText('开始认证'))
    expect(await screen.findByText('执业信息')).toBeTruthy()
    expect(screen.getByText('请选择执业医院')).toBeTruthy()
    expect(screen.getByText('保存草稿')).toBeTruthy()
    expect(screen.getByText('提交审核')).toBeTruthy()
  })

  it('a draft opens straight in the form, filled in as saved', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(completeDraft())
    await renderPage(PAGE)
    expect(await screen.findByText('示例市第一人民医院')).toBeTruthy()
    expect(await screen.findByText('放射科')).toBeTruthy()
    expect(screen.getByRole('radio', { name: '主治医师' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    expect(screen.getByRole('checkbox', { name: '肺结节' }).getAttribute('aria-checked')).toBe(
      'true',
    )
    expect(screen.getByText('已选 2/8')).toBeTruthy()
    // The photos, fetched with the token.
    await waitFor(() => expect(downloadAuthorisedImage).toHaveBeenCalledTimes(2))
    const counts = Array.from(document.querySelectorAll('.cert-photo__count')).map(
      (one) => one.textContent,
    )
    expect(counts).toEqual(['1/3', '1/3', '0/3'])
  })

  it('待审核: read-only, with the submitted time; 撤回申请 asks first', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(
      completeDraft({
        status: 'pending',
        statusLabel: '待审核',
        submittedAt: '2026-11-28T02:30:00.000Z',
      }),
    )
    const modal = jest
      .spyOn(Taro, 'showModal')
      .mockResolvedValue({ confirm: true, cancel: false, errMsg: 'showModal:ok' })
    jest
      .mocked(withdrawExpertApplication)
      .mockResolvedValue(completeDraft({ status: 'withdrawn', statusLabel: '已撤回', photos: [] }))
    await renderPage(PAGE)
    expect(await screen.findByText('待审核')).toBeTruthy()
    expect(screen.getByText(/提交于 2026-11-28 10:30/)).toBeTruthy()
    expect(screen.getByText('110101199003070')).toBeTruthy()
    expect(screen.queryByText('提交审核')).toBeNull()
    fireEvent.click(screen.getByText('撤回申请'))
    await waitFor(() => expect(withdrawExpertApplication).toHaveBeenCalled())
    expect(modal).toHaveBeenCalledWith(expect.objectContaining({ title: '撤回申请' }))
    expect(await screen.findByText('重新申请')).toBeTruthy()
    expect(screen.getByText('您上次的申请已撤回，可以重新申请。')).toBeTruthy()
  })

  it('待审核 but cancelled at the question: nothing is withdrawn', async () => {
    jest
      .mocked(getMyExpertApplication)
      .mockResolvedValue(completeDraft({ status: 'pending', statusLabel: '待审核' }))
    jest
      .spyOn(Taro, 'showModal')
      .mockResolvedValue({ confirm: false, cancel: true, errMsg: 'showModal:ok' })
    await renderPage(PAGE)
    fireEvent.click(await screen.findByText('撤回申请'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(withdrawExpertApplication).not.toHaveBeenCalled()
    expect(screen.getByText('待审核')).toBeTruthy()
  })

  it('已认证: the certified values, and a change goes back to review (said in one line)', async () => {
    useAppStore.getState().setProfile(profile({ idCardStatus: 'bound', role: 'expert' }))
    jest.mocked(getMyExpertApplication).mockResolvedValue(
      completeDraft({
        status: 'approved',
        statusLabel: '已认证',
        decidedAt: '2026-11-20T01:00:00.000Z',
      }),
    )
    await renderPage(PAGE)
    expect(await screen.findByText('已认证')).toBeTruthy()
    expect(screen.getByText('认证于 2026-11-20 09:00')).toBeTruthy()
    expect(screen.getByText('主治医师')).toBeTruthy()
    const line = '变更医院、科室或职称需重新审核，审核通过前，您的主页仍显示已认证的信息。'
    expect(screen.getByText(line)).toBeTruthy()
    fireEvent.click(screen.getByText('变更医院、科室或职称'))
    expect(await screen.findByText('执业信息')).toBeTruthy()
    expect(screen.getByText(line)).toBeTruthy()
    // The new application needs current photos: the certified one's are not offered for deletion.
    expect(screen.queryByLabelText('删除执业证书信息页第 1 张')).toBeNull()
    fireEvent.click(screen.getByText('取消'))
    expect(await screen.findByText('认证于 2026-11-20 09:00')).toBeTruthy()
  })

  it("已驳回: the operator's reason first, then 修改后重新提交 with the reason kept above the form", async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(
      completeDraft({
        status: 'rejected',
        statusLabel: '已驳回',
        rejectReason: '执业证书注册页照片模糊，请重新拍摄',
        decidedAt: '2026-11-21T01:00:00.000Z',
      }),
    )
    await renderPage(PAGE)
    expect(await screen.findByText('已驳回')).toBeTruthy()
    expect(screen.getByText('执业证书注册页照片模糊，请重新拍摄')).toBeTruthy()
    fireEvent.click(screen.getByText('修改后重新提交'))
    expect(await screen.findByText('提交审核')).toBeTruthy()
    expect(screen.getByText('执业证书注册页照片模糊，请重新拍摄')).toBeTruthy()
    expect(screen.getByLabelText('删除执业证书注册页第 1 张')).toBeTruthy()
  })

  it('without a bound ID card: says why and links to 身份证绑定', async () => {
    useAppStore.getState().setProfile(profile({ idCardStatus: 'none' }))
    jest.mocked(getMyExpertApplication).mockResolvedValue(null)
    await renderPage(PAGE)
    expect(await screen.findByText(EXPERT_MESSAGES.idCardMissing)).toBeTruthy()
    fireEvent.click(screen.getByText('去绑定身份证'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/idcard/idcard' })
  })
})

describe('专家认证: the form', () => {
  it("checks in the contract's words, beside each field, and sends nothing", async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(application())
    await renderPage(PAGE)
    await screen.findByText('提交审核')
    typeInto(CERT_PLACEHOLDER, '12345')
    // Typing alone does not scold; leaving the field does.
    expect(screen.queryByText(EXPERT_MESSAGES.practiceCertificate)).toBeNull()
    fireEvent.blur(document.querySelector(`[placeholder="${CERT_PLACEHOLDER}"]`) as HTMLElement)
    expect(await screen.findByText(EXPERT_MESSAGES.practiceCertificate)).toBeTruthy()
    fireEvent.click(screen.getByText('提交审核'))
    expect(await screen.findByText(EXPERT_MESSAGES.hospitalRequired)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.titleRequired)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.qualificationCertificate)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.categoryRequired)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.scopeRequired)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.specialitiesRequired)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.photosMissing)).toBeTruthy()
    expect(screen.getByText(EXPERT_MESSAGES.agreementRequired)).toBeTruthy()
    expect(toast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: '请按提示补全后再提交' }),
    )
    expect(saveExpertDraft).not.toHaveBeenCalled()
    expect(submitExpertApplication).not.toHaveBeenCalled()
  })

  it('keeps 擅长方向 to the contract’s maximum', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(application())
    await renderPage(PAGE)
    await screen.findByText('提交审核')
    const tags = screen.getAllByRole('checkbox').filter((one) => one.classList.contains('cert-tag'))
    for (const tag of tags.slice(0, 9)) fireEvent.click(tag)
    expect(screen.getByText('已选 8/8')).toBeTruthy()
    expect(toast).toHaveBeenLastCalledWith(
      expect.objectContaining({ title: EXPERT_MESSAGES.specialitiesMany }),
    )
    fireEvent.click(tags[0])
    expect(screen.getByText('已选 7/8')).toBeTruthy()
  })

  it('the agreement must be ticked: everything else filled, submit still waits for it', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(completeDraft())
    await renderPage(PAGE)
    await screen.findByText('（版本 2026-11）')
    fireEvent.click(screen.getByText('提交审核'))
    expect(await screen.findByText(EXPERT_MESSAGES.agreementRequired)).toBeTruthy()
    expect(screen.queryByText(EXPERT_MESSAGES.photosMissing)).toBeNull()
    expect(submitExpertApplication).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('《专家服务协议》'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/agreement/expertAgreement' })
  })

  it('submits what is on screen with the agreement version read, then shows 待审核', async () => {
    const draft = completeDraft()
    jest.mocked(getMyExpertApplication).mockResolvedValue(draft)
    jest.mocked(saveExpertDraft).mockResolvedValue(draft)
    jest.mocked(submitExpertApplication).mockResolvedValue({
      ...draft,
      status: 'pending',
      statusLabel: '待审核',
      submittedAt: '2026-11-28T03:00:00.000Z',
      agreementVersion: '2026-11',
    })
    await renderPage(PAGE)
    await screen.findByText('（版本 2026-11）')
    fireEvent.click(screen.getByText('我已阅读并同意'))
    fireEvent.click(screen.getByText('提交审核'))
    await waitFor(() => expect(submitExpertApplication).toHaveBeenCalledWith('2026-11'))
    expect(saveExpertDraft).toHaveBeenCalledWith({
      hospitalId: 'demo-hospital-01',
      department: '放射科',
      title: 'attending',
      practiceCertificateNo: '110101199003070',
      qualificationCertificateNo: '199911110000000000000000001',
      practiceCategory: 'clinical',
      practiceScope: '医学影像和放射治疗专业',
      specialities: ['胸部影像', '肺结节'],
      introduction: '从事胸部影像诊断十年。',
    })
    expect(await screen.findByText('待审核')).toBeTruthy()
    expect(screen.getByText(/提交于 2026-11-28 11:00/)).toBeTruthy()
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: '已提交，请等待审核' }))
  })

  it('refused for a missing ID card: the way to bind shows, and nothing typed is lost', async () => {
    const draft = completeDraft()
    jest.mocked(getMyExpertApplication).mockResolvedValue(draft)
    jest.mocked(saveExpertDraft).mockResolvedValue(draft)
    jest
      .mocked(submitExpertApplication)
      .mockRejectedValue(refusal(EXPERT_MESSAGES.idCardMissing, REASONS.expertIdCardMissing))
    await renderPage(PAGE)
    await screen.findByText('（版本 2026-11）')
    typeInto('与执业证书一致，如 医学影像和放射治疗专业', '医学影像专业')
    fireEvent.click(screen.getByText('我已阅读并同意'))
    fireEvent.click(screen.getByText('提交审核'))
    expect(await screen.findByText('去绑定身份证')).toBeTruthy()
    // The notice and the refusal above the buttons both say it, in the server's words.
    expect(screen.getAllByText(EXPERT_MESSAGES.idCardMissing).length).toBe(2)
    expect(
      document
        .querySelector('[placeholder="与执业证书一致，如 医学影像和放射治疗专业"]')
        ?.getAttribute('value'),
    ).toBe('医学影像专业')
    expect(screen.getByText('提交审核')).toBeTruthy()
  })

  it('a hospital chosen on 选择医院 comes back, with its departments to pick from', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(application())
    await renderPage(PAGE)
    fireEvent.click(await screen.findByLabelText('选择医院'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/expertPerfect/selectHos' })
    emitExpertHospitalPicked({
      kind: 'hospital',
      hospital: {
        id: 'demo-hospital-01',
        name: '示例市第一人民医院',
        level: '三级甲等',
        province: '北京市',
        city: '北京市',
        address: '示例市健康路 1 号（演示数据）',
        regionName: '北京市东城区',
        demo: true,
      },
    })
    expect(await screen.findByText('示例市第一人民医院')).toBeTruthy()
    await waitFor(() => expect(listHospitalDepartments).toHaveBeenCalledWith('demo-hospital-01'))
    fireEvent.click(await screen.findByLabelText('选择科室'))
    fireEvent.click(await screen.findByText('心内科'))
    expect(await screen.findByLabelText('科室：心内科，点击更换')).toBeTruthy()
  })

  it('a requested hospital comes back as 待添加, the department is typed, and the draft names the request', async () => {
    const draft = completeDraft({ hospitalId: null, hospitalName: null, department: null })
    jest.mocked(getMyExpertApplication).mockResolvedValue(draft)
    jest.mocked(saveExpertDraft).mockResolvedValue(draft)
    await renderPage(PAGE)
    fireEvent.click(await screen.findByLabelText('选择医院'))
    emitExpertHospitalPicked({ kind: 'request', request: hospitalRequest() })
    const picker = await screen.findByLabelText(
      '医院：示例县人民医院（待添加，运营人员添加后自动更新），点击更换',
    )
    expect(picker.textContent).toContain('示例县人民医院（待添加，运营人员添加后自动更新）')
    expect(screen.getByText(/已申请添加（河北省 · 石家庄市）/)).toBeTruthy()
    // No department list exists for a hospital not yet listed: the person types theirs.
    expect(listHospitalDepartments).not.toHaveBeenCalled()
    typeInto('该医院未列出科室，请填写您的科室', '影像科')
    fireEvent.click(screen.getByText('保存草稿'))
    await waitFor(() => expect(saveExpertDraft).toHaveBeenCalled())
    const sent = jest.mocked(saveExpertDraft).mock.calls[0][0]
    expect(sent).toMatchObject({ hospitalRequestId: 'hr-1', department: '影像科' })
    expect(sent).not.toHaveProperty('hospitalId')
  })

  it('待审核 with a request: 待添加 beside the name', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(
      completeDraft({
        status: 'pending',
        statusLabel: '待审核',
        hospitalId: null,
        hospitalName: null,
        hospitalRequest: hospitalRequest(),
        submittedAt: '2026-11-28T02:30:00.000Z',
      }),
    )
    await renderPage(PAGE)
    expect(await screen.findByText('示例县人民医院（待添加，运营人员添加后自动更新）')).toBeTruthy()
    // Submitted already: the note says the review waits, not that it may be submitted first.
    expect(screen.getByText(/运营人员添加医院后再审核您的申请/)).toBeTruthy()
    expect(screen.queryByText(/您可以先提交/)).toBeNull()
  })

  it('已认证 after the request was added shows the hospital it was added as', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(
      completeDraft({
        status: 'approved',
        statusLabel: '已认证',
        hospitalId: 'h9',
        hospitalName: '示例县第一人民医院',
        hospitalRequest: hospitalRequest({
          status: 'added',
          statusLabel: '已添加',
          hospitalId: 'h9',
          hospitalName: '示例县第一人民医院',
        }),
      }),
    )
    await renderPage(PAGE)
    expect(await screen.findByText('示例县第一人民医院（已添加）')).toBeTruthy()
    expect(
      screen.getByText('您申请的「示例县人民医院」已添加为「示例县第一人民医院」'),
    ).toBeTruthy()
  })

  it('a declined request: 未添加 with the reason, submit waits for a new choice, 重新选择医院', async () => {
    const declined = hospitalRequest({
      status: 'declined',
      statusLabel: '未添加',
      declineReason: '未查到该医院的执业登记',
    })
    jest
      .mocked(getMyExpertApplication)
      .mockResolvedValue(
        completeDraft({ hospitalId: null, hospitalName: null, hospitalRequest: declined }),
      )
    await renderPage(PAGE)
    expect(
      await screen.findByText('「示例县人民医院」未添加，原因：未查到该医院的执业登记'),
    ).toBeTruthy()
    expect(screen.getByLabelText('医院：示例县人民医院（未添加），点击更换')).toBeTruthy()
    await screen.findByText('（版本 2026-11）')
    fireEvent.click(screen.getByText('我已阅读并同意'))
    fireEvent.click(screen.getByText('提交审核'))
    expect(await screen.findByText(HOSPITAL_REQUEST_MESSAGES.declined)).toBeTruthy()
    expect(submitExpertApplication).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('重新选择医院'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/expertPerfect/selectHos' })
  })

  it('已驳回 with a declined request: the reason and 重新选择医院 opens the form', async () => {
    jest.mocked(getMyExpertApplication).mockResolvedValue(
      completeDraft({
        status: 'rejected',
        statusLabel: '已驳回',
        rejectReason: '医院未能核实',
        hospitalId: null,
        hospitalName: null,
        hospitalRequest: hospitalRequest({
          status: 'declined',
          statusLabel: '未添加',
          declineReason: '未查到该医院的执业登记',
        }),
      }),
    )
    await renderPage(PAGE)
    expect(await screen.findByText('示例县人民医院（未添加）')).toBeTruthy()
    fireEvent.click(screen.getByText('重新选择医院'))
    expect(await screen.findByText('执业信息')).toBeTruthy()
  })

  it('a hospital without departments lets the person type theirs', async () => {
    jest.mocked(listHospitalDepartments).mockResolvedValue([])
    jest
      .mocked(getMyExpertApplication)
      .mockResolvedValue(application({ hospitalId: 'h9', hospitalName: '某县医院' }))
    await renderPage(PAGE)
    typeInto(await screenPlaceholder('该医院未列出科室，请填写您的科室'), '医学影像科')
    expect(
      document
        .querySelector('[placeholder="该医院未列出科室，请填写您的科室"]')
        ?.getAttribute('value'),
    ).toBe('医学影像科')
  })

  it('uploads a certificate photo of its kind and deletes one', async () => {
    jest.spyOn(Taro, 'chooseImage').mockResolvedValue({
      tempFilePaths: ['blob:new'],
      tempFiles: [],
      errMsg: 'chooseImage:ok',
    } as unknown as Taro.chooseImage.SuccessCallbackResult)
    const draft = completeDraft()
    jest.mocked(getMyExpertApplication).mockResolvedValue(application())
    jest.mocked(uploadExpertPhoto).mockResolvedValue({ ...draft, photos: draft.photos.slice(0, 1) })
    jest.mocked(deleteExpertPhoto).mockResolvedValue(application())
    await renderPage(PAGE)
    fireEvent.click(await screen.findByLabelText('上传执业证书信息页'))
    await waitFor(() => expect(uploadExpertPhoto).toHaveBeenCalledWith('practice-info', 'blob:new'))
    fireEvent.click(await screen.findByLabelText('删除执业证书信息页第 1 张'))
    await waitFor(() => expect(deleteExpertPhoto).toHaveBeenCalledWith('p1'))
    await waitFor(() => expect(screen.queryByLabelText('删除执业证书信息页第 1 张')).toBeNull())
  })
})

async function screenPlaceholder(placeholder: string): Promise<string> {
  await screen.findAllByPlaceholderText(placeholder)
  return placeholder
}
