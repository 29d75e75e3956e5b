import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { ReportTemplate, SignedOpinion } from '@contract/main/opinions'
import { typeInto } from '@/components/form/__tests__/inputs'
import { getExpertAiDrafts } from '@/services/ai'
import {
  downloadOpinionPdf,
  getOpinion,
  getOpinionWorkspace,
  listReportTemplates,
  type OpinionWorkspace,
  saveOpinionDraft,
  signOpinion,
  verifyOpinion,
} from '@/services/opinions'
import { profile } from '@/services/__tests__/account-fixtures'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { renderPage } from '../../../../jest/taro-render'
import { DRAFT_SAVE_DELAY_MS } from '../hooks/use-opinion-editor'

jest.mock('@/services/ai', () => ({
  ...jest.requireActual<typeof import('@/services/ai')>('@/services/ai'),
  getExpertAiDrafts: jest.fn(),
}))

jest.mock('@/services/opinions', () => ({
  ...jest.requireActual<typeof import('@/services/opinions')>('@/services/opinions'),
  getOpinionWorkspace: jest.fn(),
  listReportTemplates: jest.fn(),
  saveOpinionDraft: jest.fn(),
  saveTemplateVariant: jest.fn(),
  signOpinion: jest.fn(),
  getOpinion: jest.fn(),
  verifyOpinion: jest.fn(),
  downloadOpinionPdf: jest.fn(),
}))

const CHEST: ReportTemplate = {
  id: 'chest-ct',
  version: 1,
  title: '胸部 CT',
  modality: 'CT',
  bodyPart: '胸部',
  source: 'RSNA RadReport「CT Chest」中文改写',
  variant: null,
  sections: [
    {
      id: 'lung',
      title: '肺与气道',
      part: 'findings',
      fields: [
        { id: 'lungs', label: '肺实质', type: 'text', required: false, defaultValue: '双肺清晰。' },
        {
          id: 'airways',
          label: '气道',
          type: 'choice',
          required: false,
          options: ['气管及各级支气管通畅', '支气管扩张'],
          defaultValue: '气管及各级支气管通畅',
        },
      ],
    },
    {
      id: 'impression',
      title: '会诊意见',
      part: 'impression',
      fields: [{ id: 'impression', label: '会诊意见', type: 'text', required: true }],
    },
  ],
}

const SPACE: OpinionWorkspace = {
  consultationId: 'c1',
  grantId: 'g1',
  patientLabel: '王** 男 45岁',
  chiefComplaint: '体检发现肺结节',
  blocked: null,
  exams: [{ examId: 'e1', title: '胸部 CT', modality: 'CT' }],
  draft: null,
  signed: null,
}

const SIGNED: SignedOpinion = {
  id: 'op-1',
  consultationId: 'c1',
  template: { id: 'chest-ct', version: 1, title: '胸部 CT', source: CHEST.source },
  sentences: [
    {
      part: 'findings',
      sectionTitle: '肺与气道',
      fieldId: 'lungs',
      label: '肺实质',
      text: '右肺上叶磨玻璃结节约 6 mm。',
      fromAi: true,
    },
    {
      part: 'impression',
      sectionTitle: '会诊意见',
      fieldId: 'impression',
      label: '会诊意见',
      text: '良性可能大。',
      fromAi: false,
    },
  ],
  pins: [
    {
      id: 'pin-00000001',
      fieldId: 'lungs',
      examId: 'e1',
      studyUid: '1.2',
      seriesUid: '1.2.3',
      sop: '1.2.3.4',
      frame: 1,
      measurement: null,
      label: '第 34 层 · 6.1 mm',
    },
  ],
  ai: {
    provider: { id: 'demo', name: '演示算法', kind: 'demo', notice: '演示算法，非医疗器械' },
    fieldIds: ['lungs'],
  },
  signer: {
    name: '李放射',
    titleLabel: '主任医师',
    hospitalName: '第一医院',
    department: '放射科',
  },
  patientLabel: '王** 男 45岁',
  signedAt: '2026-11-21T02:00:00.000Z',
  verifyCode: 'AB3CD-EF4GH',
  contentHash: 'f'.repeat(64),
  addenda: [{ text: '补充：未见血管集束征。', signedAt: '2026-11-21T03:00:00.000Z' }],
  role: 'patient',
}

beforeEach(() => {
  resetStores()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' })
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false, errMsg: 'ok' })
  jest.mocked(listReportTemplates).mockResolvedValue([CHEST])
  jest.mocked(getExpertAiDrafts).mockResolvedValue([])
  jest.mocked(getOpinionWorkspace).mockResolvedValue(SPACE)
  jest.mocked(saveOpinionDraft).mockImplementation(async (body) => ({
    ...body,
    updatedAt: '2026-11-21T01:00:00.000Z',
  }))
})

describe('会诊报告: the expert writes from a template and signs', () => {
  it('picks 胸部 CT, starts from its defaults, taps a pick-list, saves the draft, and signs with the password', async () => {
    await renderPage('pages/report/report', { consultationId: 'c1' })
    expect(await screen.findByText('选择报告模板')).toBeTruthy()
    expect(screen.getByText('体检发现肺结节')).toBeTruthy()
    fireEvent.click(screen.getByText('胸部 CT'))
    expect(await screen.findByText('肺与气道')).toBeTruthy()
    // A pick-list is taps; the draft is saved once the typing stops.
    fireEvent.click(screen.getByText('支气管扩张'))
    await waitFor(
      () =>
        expect(saveOpinionDraft).toHaveBeenLastCalledWith(
          expect.objectContaining({
            consultationId: 'c1',
            templateId: 'chest-ct',
            values: expect.objectContaining({ lungs: '双肺清晰。', airways: '支气管扩张' }),
          }),
        ),
      { timeout: DRAFT_SAVE_DELAY_MS + 2000 },
    )
    expect(await screen.findByText('草稿已保存')).toBeTruthy()

    typeInto('请填写会诊意见', '良性可能大。')
    jest.mocked(signOpinion).mockResolvedValue({ ...SIGNED, role: 'expert' })
    fireEvent.click(screen.getByText('签署并发送'))
    typeInto('请输入登录密码', 'secret123')
    const buttons = await screen.findAllByText('签署并发送')
    await act(async () => {
      fireEvent.click(buttons[buttons.length - 1]!)
    })
    await waitFor(() =>
      expect(signOpinion).toHaveBeenCalledWith(
        expect.objectContaining({
          consultationId: 'c1',
          templateId: 'chest-ct',
          password: 'secret123',
          values: expect.objectContaining({ impression: '良性可能大。' }),
        }),
      ),
    )
    // Signed: the opinion as the patient reads it, with its code.
    expect(await screen.findByText('验证码：AB3CD-EF4GH')).toBeTruthy()
  })

  it('takes an AI draft in only on the expert’s tap, marks it, and signs it with its provider named', async () => {
    jest.mocked(getExpertAiDrafts).mockResolvedValue([
      {
        analysisId: 'an-1',
        examId: 'e1',
        provider: { id: 'demo', name: '演示算法', kind: 'demo', notice: '演示算法，非医疗器械' },
        templateId: 'chest-ct',
        values: { lungs: '双肺体积约 4,520 cm³（演示算法，非医疗器械）' },
        computed: [{ label: '双肺体积', value: '4520', unit: 'cm³' }],
        createdAt: '2026-11-21T01:00:00.000Z',
      },
    ])
    await renderPage('pages/report/report', { consultationId: 'c1' })
    fireEvent.click(await screen.findByText('胸部 CT'))
    expect(await screen.findByText(/可填入后审阅修改/)).toBeTruthy()
    // Nothing of it is in the form until the expert taps.
    expect(screen.queryByDisplayValue(/4,520/)).toBeNull()
    fireEvent.click(screen.getByText('填入草稿'))
    expect(
      await screen.findByDisplayValue('双肺体积约 4,520 cm³（演示算法，非医疗器械）'),
    ).toBeTruthy()
    expect(screen.getAllByText('AI 草稿').length).toBeGreaterThan(0)
    typeInto('请填写会诊意见', '肺容积正常。')
    jest.mocked(signOpinion).mockResolvedValue({ ...SIGNED, role: 'expert' })
    fireEvent.click(screen.getByText('签署并发送'))
    typeInto('请输入登录密码', 'secret123')
    const buttons = await screen.findAllByText('签署并发送')
    await act(async () => {
      fireEvent.click(buttons[buttons.length - 1]!)
    })
    await waitFor(() =>
      expect(signOpinion).toHaveBeenCalledWith(
        expect.objectContaining({ aiFields: { lungs: 'an-1' } }),
      ),
    )
  })

  it('restores a saved draft, and says why when the consultation cannot be written', async () => {
    jest.mocked(getOpinionWorkspace).mockResolvedValue({
      ...SPACE,
      draft: {
        templateId: 'chest-ct',
        variantId: null,
        values: { lungs: '上次写到这里' },
        pins: [],
        aiFields: {},
        updatedAt: '2026-11-21T01:00:00.000Z',
      },
    })
    await renderPage('pages/report/report', { consultationId: 'c1' })
    expect(await screen.findByDisplayValue('上次写到这里')).toBeTruthy()

    jest
      .mocked(getOpinionWorkspace)
      .mockResolvedValue({ ...SPACE, blocked: '当前状态不能撰写会诊报告' })
    await renderPage('pages/report/report', { consultationId: 'c2' })
    expect(await screen.findByText('当前状态不能撰写会诊报告')).toBeTruthy()
  })
})

describe('会诊报告: the patient reads it; anyone verifies its code', () => {
  it('shows the sentences, the pinned image, the AI note, the addendum and the signer; 保存 PDF downloads it', async () => {
    jest.mocked(getOpinion).mockResolvedValue(SIGNED)
    jest.mocked(downloadOpinionPdf).mockResolvedValue('blob:pdf')
    const navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' })
    await renderPage('pages/report/report', { id: 'op-1' })
    expect(await screen.findByText('右肺上叶磨玻璃结节约 6 mm。')).toBeTruthy()
    expect(screen.getByText('补充：未见血管集束征。')).toBeTruthy()
    expect(screen.getByText(/演示算法，非医疗器械/)).toBeTruthy()
    expect(screen.getByText('签署专家：李放射 主任医师')).toBeTruthy()
    fireEvent.click(screen.getByText('第 34 层 · 6.1 mm'))
    await waitFor(() =>
      expect(navigateTo).toHaveBeenCalledWith(
        expect.objectContaining({
          url: expect.stringMatching(/^\/pages\/personalImage\/viewer\?examId=e1&.*sop=1\.2\.3\.4/),
        }),
      ),
    )
    fireEvent.click(screen.getByText('保存 PDF'))
    await waitFor(() => expect(downloadOpinionPdf).toHaveBeenCalledWith('op-1'))
  })

  it('核验: the code from the QR link is checked at once; a malformed one is refused before any call', async () => {
    jest.mocked(verifyOpinion).mockResolvedValue({
      verifyCode: 'AB3CD-EF4GH',
      templateTitle: '胸部 CT',
      signer: SIGNED.signer,
      patientLabel: '王** 男 45岁',
      signedAt: SIGNED.signedAt,
      contentHash: SIGNED.contentHash,
      addenda: 1,
    })
    await renderPage('pages/report/report', { verify: 'AB3CDEF4GH' })
    expect(await screen.findByText('验证通过：本平台确有此报告')).toBeTruthy()
    expect(verifyOpinion).toHaveBeenCalledWith('AB3CDEF4GH')
    expect(screen.getByText('签署后有 1 条补充说明')).toBeTruthy()

    jest.mocked(verifyOpinion).mockClear()
    await renderPage('pages/report/report')
    typeInto('输入报告上的 10 位验证码', 'abc')
    fireEvent.click(screen.getByText('核验'))
    expect(await screen.findByText('验证码为 10 位字母与数字，如 AB3CD-EF4GH')).toBeTruthy()
    expect(verifyOpinion).not.toHaveBeenCalled()
  })
})
