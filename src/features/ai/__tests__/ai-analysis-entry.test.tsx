import { fireEvent, screen, waitFor } from '@testing-library/react'
import {
  AI_MESSAGES,
  type AiAnalysisStatus,
  type AiAnalysisView,
  applyAiAnalysis,
  getAiAnalysis,
} from '@/services/ai'
import { AiAnalysisEntry } from '../components/ai-analysis-entry'
import { renderComponent } from '../../../../jest/taro-render'

jest.mock('@/services/ai', () => ({
  ...jest.requireActual<typeof import('@/services/ai')>('@/services/ai'),
  getAiAnalysis: jest.fn(),
  applyAiAnalysis: jest.fn(),
}))

/* 申请AI分析 on 影像详情: explained before it is sent, then only its state (never a result). */

const DEMO = {
  id: 'demo-lung-threshold',
  name: '演示算法：肺体积与肺密度（阈值法）',
  kind: 'demo' as const,
  notice: '演示算法，非医疗器械',
}

function status(state: AiAnalysisStatus['state'], message: string = AI_MESSAGES.draftOnly) {
  const labels = {
    queued: '已申请',
    running: '分析中',
    done: '分析完成，等待专家在会诊中审阅',
    failed: '分析失败',
  }
  return {
    id: 'a1',
    examId: 'e1',
    state,
    stateLabel: labels[state],
    message,
    provider: DEMO,
    createdAt: '2026-11-29T00:00:00.000Z',
    updatedAt: '2026-11-29T00:00:00.000Z',
  }
}

function view(analysis: AiAnalysisStatus | null, configured = true): AiAnalysisView {
  return configured
    ? {
        service: { configured: true, provider: DEMO, message: DEMO.notice },
        applicable: true,
        notApplicable: null,
        analysis,
      }
    : {
        service: { configured: false, provider: null, message: '未配置AI分析服务' },
        applicable: false,
        notApplicable: '未配置AI分析服务',
        analysis,
      }
}

beforeEach(() => jest.clearAllMocks())

describe('AiAnalysisEntry', () => {
  it('explains what happens before asking, then shows the request’s state only', async () => {
    jest.mocked(getAiAnalysis).mockResolvedValue(view(null))
    jest.mocked(applyAiAnalysis).mockResolvedValue(status('queued'))
    await renderComponent(<AiAnalysisEntry examId="e1" modalities={['CT']} />)
    fireEvent.click(await screen.findByText('申请AI分析'))
    // The confirm, in plain words: a draft for the expert, not a diagnosis, seen only when signed.
    const text = (await screen.findByText(/不是诊断/)).textContent ?? ''
    expect(text).toContain('不会单独展示给您')
    expect(document.body.textContent).toContain('专家审阅、修改并签署会诊意见后')
    expect(document.body.textContent).toContain('演示算法，非医疗器械')
    expect(applyAiAnalysis).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('确认申请'))
    await waitFor(() => expect(applyAiAnalysis).toHaveBeenCalledWith('e1'))
    expect(await screen.findByText('已申请')).toBeTruthy()
    expect(screen.getByText(AI_MESSAGES.draftOnly)).toBeTruthy()
    // One request per exam: nothing to press any more.
    expect(document.querySelector('.ai-analysis__button')).toBeNull()
  })

  it('cancelling the confirm sends nothing', async () => {
    jest.mocked(getAiAnalysis).mockResolvedValue(view(null))
    await renderComponent(<AiAnalysisEntry examId="e1" modalities={['CT']} />)
    fireEvent.click(await screen.findByText('申请AI分析'))
    fireEvent.click(await screen.findByText('取消'))
    expect(applyAiAnalysis).not.toHaveBeenCalled()
  })

  it('says 分析中 while it runs', async () => {
    jest.mocked(getAiAnalysis).mockResolvedValue(view(status('running')))
    await renderComponent(<AiAnalysisEntry examId="e1" modalities={['CT']} />)
    expect(await screen.findByText('分析中')).toBeTruthy()
    expect(screen.getByText(AI_MESSAGES.draftOnly)).toBeTruthy()
  })

  it('says 分析完成，等待专家在会诊中审阅 when done, with nothing of the result', async () => {
    jest.mocked(getAiAnalysis).mockResolvedValue(view(status('done')))
    await renderComponent(<AiAnalysisEntry examId="e1" modalities={['CT']} />)
    expect(await screen.findByText('分析完成，等待专家在会诊中审阅')).toBeTruthy()
    expect(document.querySelector('.ai-analysis__button')).toBeNull()
  })

  it('says 分析失败 with its reason, and may be asked again', async () => {
    const reason = '图像缺少像素间距（Pixel Spacing），无法计算体积'
    jest.mocked(getAiAnalysis).mockResolvedValue(view(status('failed', reason)))
    await renderComponent(<AiAnalysisEntry examId="e1" modalities={['CT']} />)
    expect(await screen.findByText('分析失败')).toBeTruthy()
    expect(screen.getByText(`原因：${reason}`)).toBeTruthy()
    expect(screen.getByText('重新申请AI分析')).toBeTruthy()
  })

  it('unconfigured: says 未配置AI分析服务 calmly, with nothing to press', async () => {
    jest.mocked(getAiAnalysis).mockResolvedValue(view(null, false))
    await renderComponent(<AiAnalysisEntry examId="e1" modalities={['CT']} />)
    expect(await screen.findByText('未配置AI分析服务')).toBeTruthy()
    expect(screen.queryByText('申请AI分析')).toBeNull()
  })

  it('not a CT: no entry, nothing asked', async () => {
    const shown = await renderComponent(<AiAnalysisEntry examId="e1" modalities={['MR']} />)
    expect(shown.container.textContent ?? '').not.toContain('AI 分析')
    expect(getAiAnalysis).not.toHaveBeenCalled()
  })
})
