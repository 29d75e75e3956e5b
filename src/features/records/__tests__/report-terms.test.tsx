import { act, fireEvent, screen, waitFor } from '@testing-library/react'
import { clearTextAnalyses } from '@/components/explained-text/use-text-analysis'
import { profile } from '@/services/__tests__/account-fixtures'
import { analyseText, KNOWLEDGE_MESSAGES } from '@/services/knowledge'
import { useAppStore } from '@/stores/app-store'
import { resetStores } from '@/stores/reset-stores'
import { useSessionStore } from '@/stores/session-store'
import { ReportBody } from '../components/report-sections'
import { renderComponent } from '../../../../jest/taro-render'
import { reportDetail } from './fixtures'

jest.mock('@/services/knowledge', () => ({
  ...jest.requireActual<typeof import('@/services/knowledge')>('@/services/knowledge'),
  analyseText: jest.fn(),
}))

/* 报告详情's 影像所见 and 诊断意见: the medical terms underlined and explained (issue 23). */

const FINDINGS = '右肺上叶后段见一实性结节，边界清楚。'
const CONCLUSION = '右肺上叶实性结节，建议随访。'
const SOLID = {
  id: 'chest.solid-nodule',
  term: '实性结节',
  aliases: ['实性小结节'],
  category: 'chest' as const,
  categoryLabel: '胸部与乳腺',
  explanation: '实性结节是 CT 上密度较高、能完全遮住其中血管的结节。',
  followUp: { text: '6–8 mm 建议 6–12 个月复查 CT。', source: 'Fleischner Society 2017' },
}

beforeEach(() => {
  resetStores()
  clearTextAnalyses()
  jest.clearAllMocks()
  useSessionStore.getState().setToken({ access_token: 'tok' })
  useAppStore.getState().setProfile(profile())
  jest.mocked(analyseText).mockImplementation(async (text) => {
    const start = text.indexOf('实性结节')
    return {
      spans: start >= 0 ? [{ start, end: start + 4, termId: SOLID.id }] : [],
      terms: start >= 0 ? { [SOLID.id]: SOLID } : {},
    }
  })
})

const underlined = () =>
  Array.from(document.querySelectorAll('.report-sections__text .explained-text__term')).map(
    (el) => el.textContent,
  )

describe('ReportBody explains its terms', () => {
  it('underlines them in 影像所见 and 诊断意见; a tap explains with the caveat', async () => {
    await renderComponent(
      <ReportBody report={reportDetail({ findings: FINDINGS, conclusion: CONCLUSION })} />,
    )
    await waitFor(() => expect(underlined()).toEqual(['实性结节', '实性结节']))
    expect(analyseText).toHaveBeenCalledWith(FINDINGS)
    expect(analyseText).toHaveBeenCalledWith(CONCLUSION)
    await act(async () => {
      fireEvent.click(screen.getAllByText('实性结节')[0]!)
    })
    expect(await screen.findByText(SOLID.explanation)).toBeTruthy()
    expect(screen.getByText(`来源：${SOLID.followUp.source}`)).toBeTruthy()
    expect(screen.getByText(KNOWLEDGE_MESSAGES.caveat)).toBeTruthy()
  })

  it('shows the report’s words plain when the explanations fail', async () => {
    jest.mocked(analyseText).mockRejectedValue(new Error('服务端异常'))
    await renderComponent(
      <ReportBody report={reportDetail({ findings: FINDINGS, conclusion: CONCLUSION })} />,
    )
    await waitFor(() => expect(analyseText).toHaveBeenCalledTimes(2))
    await act(async () => {
      await Promise.resolve()
    })
    expect(screen.getByText(FINDINGS)).toBeTruthy()
    expect(screen.getByText(CONCLUSION)).toBeTruthy()
    expect(underlined()).toEqual([])
  })

  it('an empty section says so, and asks nothing about it', async () => {
    await renderComponent(<ReportBody report={reportDetail({ findings: null, conclusion: '' })} />)
    expect(screen.getByText('医院未提供影像所见')).toBeTruthy()
    expect(screen.getByText('医院未提供诊断意见')).toBeTruthy()
    expect(analyseText).not.toHaveBeenCalled()
  })
})
